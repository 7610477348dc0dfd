// The interned HDF5 API names (see apis.h).
#include "vol/apis.h"

namespace provio::vol {

namespace {

Apis intern_apis() {
  using model::api_id;
  Apis x{};
  x.Fcreate = api_id("H5Fcreate");
  x.Fopen = api_id("H5Fopen");
  x.Fclose = api_id("H5Fclose");
  x.Fflush = api_id("H5Fflush");
  x.Fdelete = api_id("H5Fdelete");
  x.Fis_accessible = api_id("H5Fis_accessible");
  x.Freopen = api_id("H5Freopen");
  x.Gcreate = api_id("H5Gcreate");
  x.Gcreate_anon = api_id("H5Gcreate_anon");
  x.Gopen = api_id("H5Gopen");
  x.Gclose = api_id("H5Gclose");
  x.Gflush = api_id("H5Gflush");
  x.Dcreate = api_id("H5Dcreate");
  x.Dcreate_anon = api_id("H5Dcreate_anon");
  x.Dopen = api_id("H5Dopen");
  x.Dclose = api_id("H5Dclose");
  x.Dread = api_id("H5Dread");
  x.Dwrite = api_id("H5Dwrite");
  x.Dread_multi = api_id("H5Dread_multi");
  x.Dwrite_multi = api_id("H5Dwrite_multi");
  x.Dset_extent = api_id("H5Dset_extent");
  x.Dflush = api_id("H5Dflush");
  x.Acreate = api_id("H5Acreate");
  x.Aopen = api_id("H5Aopen");
  x.Aread = api_id("H5Aread");
  x.Awrite = api_id("H5Awrite");
  x.Aclose = api_id("H5Aclose");
  x.Adelete = api_id("H5Adelete");
  x.Arename = api_id("H5Arename");
  x.Tcommit = api_id("H5Tcommit");
  x.Tcommit_anon = api_id("H5Tcommit_anon");
  x.Topen = api_id("H5Topen");
  x.Tclose = api_id("H5Tclose");
  x.Tflush = api_id("H5Tflush");
  x.Lcreate_hard = api_id("H5Lcreate_hard");
  x.Lcreate_soft = api_id("H5Lcreate_soft");
  x.Lcreate_external = api_id("H5Lcreate_external");
  x.Lcreate_ud = api_id("H5Lcreate_ud");
  x.Lcopy = api_id("H5Lcopy");
  x.Lmove = api_id("H5Lmove");
  x.Ldelete = api_id("H5Ldelete");
  x.Oopen = api_id("H5Oopen");
  x.Ocopy = api_id("H5Ocopy");
  x.Oflush = api_id("H5Oflush");
  return x;
}

}  // namespace

const Apis detail::g_apis = intern_apis();

}  // namespace provio::vol
