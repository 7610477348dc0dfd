// Full object paths inside an HDF5 file, as the connector names objects: the parent's path
// joined with the name the call used, normalised the way HDF5 resolves names.
#pragma once

#include <string>
#include <string_view>

namespace provio::vol {

// `name` resolved against the full path `base`: an absolute name replaces it; "//" and "."
// collapse; the result starts with '/', and only the root ends with '/'. HDF5 gives ".." no
// meaning (it is an ordinary link name), nor do we.
std::string join_path(std::string_view base, std::string_view name);

}  // namespace provio::vol
