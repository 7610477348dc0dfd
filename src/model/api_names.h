// Names of the concrete API calls ("H5Dwrite", "pwrite"), interned to small ids so events stay
// fixed-size. Call sites intern once: `static const ApiId id = api_id("H5Dwrite");`.
#pragma once

#include <string_view>

#include "model/event.h"

namespace provio::model {

// The id for `name` (copied on first sight). Thread-safe; takes a lock: intern once per call site.
ApiId api_id(std::string_view name);
// The name for an id ("?" if unknown).
std::string_view api_name(ApiId id);

}  // namespace provio::model
