// Sibling groups (see sibling_groups.h).
#include "sibling_groups.h"

#include <cctype>
#include <tuple>

namespace provio::viz {
namespace {

// "in_12.dat" -> "in_*.dat": every run of digits one wildcard, but for those of a short extension
// ("ckpt_3.h5" -> "ckpt_*.h5").
std::string name_pattern(const std::string& name) {
  std::size_t end = name.find(' ');  // a version's " @…"
  if (end == std::string::npos) end = name.size();
  std::size_t dot = name.rfind('.', end);
  std::size_t keep = dot != std::string::npos && end - dot <= 5 ? dot : end;
  std::string out;
  for (std::size_t i = 0; i < keep; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) {
      out += name[i];
      continue;
    }
    out += '*';
    while (i + 1 < keep && std::isdigit(static_cast<unsigned char>(name[i + 1]))) ++i;
  }
  return out + name.substr(keep);
}

}  // namespace

std::vector<SiblingGroup> group_siblings(
    const std::map<std::string, std::pair<std::string, std::string>>& named,
    const std::map<std::string, std::string>& ties) {
  std::map<std::tuple<std::string, std::string, std::string>, SiblingGroup> by_key;
  for (const auto& [iri, where] : named) {
    auto tie = ties.find(iri);
    if (tie == ties.end()) continue;
    std::string pattern = name_pattern(where.second);
    SiblingGroup& g = by_key[{where.first, pattern, tie->second}];
    if (g.label.empty()) g.label = pattern;
    g.members.push_back(iri);
  }
  std::vector<SiblingGroup> out;
  for (auto& [key, g] : by_key) {
    if (g.members.size() < kMinSiblings) continue;
    g.label += " ×" + std::to_string(g.members.size());
    out.push_back(std::move(g));
  }
  return out;
}

std::string members_text(const std::vector<std::string>& labels, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < labels.size() && i < max; ++i) out += (i ? "\n" : "") + labels[i];
  if (labels.size() > max) out += "\n… and " + std::to_string(labels.size() - max) + " more";
  return out;
}

}  // namespace provio::viz
