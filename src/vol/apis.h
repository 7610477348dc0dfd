// The HDF5 API names the connector records (H5Dwrite, H5Gcreate, …), interned once, so that a
// hook names its API by a member pointer (&Apis::Dwrite) and recording one costs no lookup.
#pragma once

#include "model/api_names.h"

namespace provio::vol {

struct Apis {
  model::ApiId Fcreate, Fopen, Fclose, Fflush, Fdelete, Fis_accessible, Freopen;
  model::ApiId Gcreate, Gopen, Gclose, Gflush;
  model::ApiId Dcreate, Dcreate_anon, Dopen, Dclose, Dread, Dwrite, Dread_multi, Dwrite_multi, Dset_extent,
      Dflush;
  model::ApiId Acreate, Aopen, Aread, Awrite, Aclose, Adelete, Arename;
  model::ApiId Tcommit, Tcommit_anon, Topen, Tclose, Tflush;
  model::ApiId Lcreate_hard, Lcreate_soft, Lcreate_external, Lcreate_ud, Lcopy, Lmove, Ldelete;
  model::ApiId Oopen, Ocopy, Oflush, Gcreate_anon;
};

namespace detail {
// Interned as the plugin loads (apis.cc): a hook reads its API's id with one load, where a
// function with a static inside cost a call and a guard check per recorded call.
extern const Apis g_apis;
}  // namespace detail

inline const Apis& apis() {
  return detail::g_apis;
}

}  // namespace provio::vol
