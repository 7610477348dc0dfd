// The info class callbacks (see info_class.h).
#include "vol/info_class.h"

#include <H5VLpassthru.h>

#include <cstring>
#include <new>
#include <string>
#include <string_view>

#include "store/recorder.h"
#include "vol/connector.h"
#include "vol/error_stack.h"

namespace provio::vol {

void* info_copy(const void* p) {
  const auto* from = static_cast<const Info*>(p);
  auto* to = new (std::nothrow) Info;
  if (!to) {
    push_error(__func__, H5E_CANTALLOC, "out of memory copying connector info");
    return nullptr;
  }
  to->under_id = from->under_id;
  H5Iinc_ref(to->under_id);
  to->text = from->text;
  if (from->under_info && H5VLcopy_connector_info(to->under_id, &to->under_info, from->under_info) < 0) {
    ErrorStackKeeper keep;
    H5Idec_ref(to->under_id);
    delete to;
    return nullptr;
  }
  return to;
}

herr_t info_cmp(int* cmp, const void* a, const void* b) {
  const auto* x = static_cast<const Info*>(a);
  const auto* y = static_cast<const Info*>(b);
  *cmp = 0;
  if (H5VLcmp_connector_cls(cmp, x->under_id, y->under_id) < 0) return -1;
  if (*cmp != 0) return 0;
  if (H5VLcmp_connector_info(cmp, x->under_id, x->under_info, y->under_info) < 0) return -1;
  if (*cmp != 0) return 0;
  if (x->text.options != y->text.options) *cmp = x->text.options < y->text.options ? -1 : 1;
  return 0;
}

herr_t info_free(void* p) {
  auto* info = static_cast<Info*>(p);
  if (!info) return 0;
  ErrorStackKeeper keep;
  herr_t r = 0;
  if (info->under_info && H5VLfree_connector_info(info->under_id, info->under_info) < 0) r = -1;
  if (info->under_id >= 0 && H5Idec_ref(info->under_id) < 0) r = -1;
  delete info;
  return r;
}

herr_t info_to_str(const void* p, char** str) {
  const auto* info = static_cast<const Info*>(p);
  InfoText text = info->text;
  H5VL_class_value_t value = -1;
  if (H5VLget_value(info->under_id, &value) < 0) return -1;
  text.under_vol = std::to_string(value);
  char* under_str = nullptr;
  if (H5VLconnector_info_to_str(info->under_info, info->under_id, &under_str) < 0) return -1;
  text.under_info = under_str ? under_str : "";
  if (under_str) H5free_memory(under_str);
  std::string s = format_info(text);
  *str = static_cast<char*>(H5allocate_memory(s.size() + 1, false));
  if (!*str) {
    push_error(__func__, H5E_CANTALLOC, "out of memory formatting connector info");
    return -1;
  }
  std::memcpy(*str, s.c_str(), s.size() + 1);
  return 0;
}

herr_t str_to_info(const char* str, void** out) {
  *out = nullptr;
  ParseResult parsed = parse_info(str ? std::string_view(str) : std::string_view());
  if (!parsed.ok) {
    std::string msg = "bad connector info string: " + parsed.error;
    push_error(__func__, H5E_CANTDECODE, msg.c_str());
    return -1;
  }
  unsigned value = 0;
  hid_t under_id;
  // HDF5's own passthrough lives inside libhdf5, not in a plugin: register it so that the
  // lookup below finds it (HDF5 does the same for HDF5_VOL_CONNECTOR=pass_through).
  if ((under_is_value(parsed.info.under_vol, &value) && value == H5VL_PASSTHRU_VALUE) ||
      parsed.info.under_vol == H5VL_PASSTHRU_NAME) {
    (void)H5VL_PASSTHRU;  // H5VL_pass_through_register() in 1.14, absent from 2.x
  }
  if (under_is_value(parsed.info.under_vol, &value)) {
    if (value == static_cast<unsigned>(kConnectorValue)) {
      push_error(__func__, H5E_BADVALUE, "under_vol cannot be provio itself");
      return -1;
    }
    under_id =
        H5VLregister_connector_by_value(static_cast<H5VL_class_value_t>(value), H5P_VOL_INITIALIZE_DEFAULT);
  } else {
    if (parsed.info.under_vol == kConnectorName) {
      push_error(__func__, H5E_BADVALUE, "under_vol cannot be provio itself");
      return -1;
    }
    under_id = H5VLregister_connector_by_name(parsed.info.under_vol.c_str(), H5P_VOL_INITIALIZE_DEFAULT);
  }
  if (under_id < 0) {
    std::string msg = "cannot load the under connector '" + parsed.info.under_vol + "'";
    push_error(__func__, H5E_CANTREGISTER, msg.c_str());
    return -1;
  }
  void* under_info = nullptr;
  if (!parsed.info.under_info.empty() &&
      H5VLconnector_str_to_info(parsed.info.under_info.c_str(), under_id, &under_info) < 0) {
    ErrorStackKeeper keep;
    H5VLclose(under_id);
    return -1;
  }
  // provio options (level=trace;dir=…) configure the core, over the PROVIO_* environment.
  if (!parsed.info.options.empty()) store::apply_overrides(parsed.info.options);
  auto* info = new (std::nothrow) Info;
  if (!info) {
    ErrorStackKeeper keep;
    if (under_info) H5VLfree_connector_info(under_id, under_info);
    H5VLclose(under_id);
    return -1;
  }
  info->under_id = under_id;
  info->under_info = under_info;
  info->text = std::move(parsed.info);
  *out = info;
  return 0;
}

}  // namespace provio::vol
