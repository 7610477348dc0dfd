// The counting rule (see counting.h).
#include "query/counting.h"

#include <algorithm>

namespace provio::query {

std::vector<ActivityRecord> counted(std::vector<ActivityRecord> records, bool with_nested) {
  if (with_nested) return records;
  records.erase(
      std::remove_if(records.begin(), records.end(), [](const ActivityRecord& r) { return r.nested; }),
      records.end());
  return records;
}

}  // namespace provio::query
