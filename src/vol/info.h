// The connector's info string, "under_vol=<value|name>;under_info={<text>};<key>=<value>;…", as
// plain text: parsed and formatted here without HDF5, so hostile input is unit-tested directly.
// Hard rule: parsing never trusts the input (no sscanf, no fixed buffers, no assert); anything
// it cannot read exactly is a ParseError with a message, which the connector turns into an HDF5
// error instead of a crash.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace provio::vol {

struct InfoText {
  // The connector below us: a value (0 = native) or a registered name. Empty means native.
  std::string under_vol = "0";
  std::string under_info;  // the text between the braces of under_info={…}, verbatim
  // provio options ("level=trace"), in the order given; kept so that copies and to_str round-trip.
  std::vector<std::pair<std::string, std::string>> options;

  bool operator==(const InfoText& o) const {
    return under_vol == o.under_vol && under_info == o.under_info && options == o.options;
  }
};

struct ParseResult {
  bool ok = false;
  InfoText info;
  std::string error;  // why not ok
};

// Parses an info string. An empty string (HDF5_VOL_CONNECTOR="provio") means native underneath.
// Braces in under_info nest, so a stacked connector's own info string passes through intact.
ParseResult parse_info(std::string_view text);

// The canonical text of `info`; parse_info(format_info(i)) == i for every i that parse accepted.
std::string format_info(const InfoText& info);

// Whether `under_vol` names a connector by value (all digits, fits H5VL_class_value_t).
bool under_is_value(std::string_view under_vol, unsigned* value);

}  // namespace provio::vol
