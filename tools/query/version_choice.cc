// Choosing a version of a file on the command line (see version_choice.h).
#include "query/version_choice.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>

#include "graph/terms.h"
#include "model/version_key.h"

namespace provio::query {
namespace {

bool stamp_of(const std::string& version_iri, model::VersionStamp& out) {
  std::size_t at = version_iri.rfind(model::kVersionSeparator);
  return at != std::string::npos &&
         model::parse_version_key(std::string_view(version_iri).substr(at + model::kVersionSeparator.size()),
                                  out);
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

bool parse_utc_time(const std::string& text, model::VersionStamp& out) {
  std::tm tm{};
  const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M", &tm);
  if (!end) return false;
  long nsec = 999'999'999;  // a time given to the minute or second covers all of it
  bool minute = true;
  if (*end == ':') {
    minute = false;
    char* after = nullptr;
    long sec = std::strtol(end + 1, &after, 10);
    if (after != end + 3 || sec < 0 || sec > 60) return false;
    tm.tm_sec = static_cast<int>(sec);
    end = after;
    if (*end == '.') {
      ++end;
      int digits = 0;
      nsec = 0;
      for (; std::isdigit(static_cast<unsigned char>(*end)) && digits < 9; ++end, ++digits)
        nsec = nsec * 10 + (*end - '0');
      if (digits == 0 || std::isdigit(static_cast<unsigned char>(*end))) return false;
      for (; digits < 9; ++digits) nsec *= 10;
    }
  }
  if (*end == 'Z') ++end;
  if (*end != '\0') return false;
  out.sec = static_cast<long long>(timegm(&tm)) + (minute ? 59 : 0);
  out.nsec = nsec;
  return true;
}

std::vector<std::string> versions_of(View& v, const std::string& file) {
  std::vector<std::pair<model::VersionStamp, std::string>> stamped;
  for (auto& ver : v.graph().subjects(prov("specializationOf"), file)) {
    model::VersionStamp s;
    if (stamp_of(ver, s)) stamped.emplace_back(s, std::move(ver));
  }
  std::sort(stamped.begin(), stamped.end(), [](const auto& a, const auto& b) {
    if (a.first.sec != b.first.sec) return a.first.sec < b.first.sec;
    if (a.first.nsec != b.first.nsec) return a.first.nsec < b.first.nsec;
    return a.second < b.second;
  });
  stamped.erase(std::unique(stamped.begin(), stamped.end(),
                            [](const auto& a, const auto& b) { return a.second == b.second; }),
                stamped.end());
  std::vector<std::string> out;
  for (auto& s : stamped) out.push_back(std::move(s.second));
  return out;
}

std::string version_at(View& v, const std::string& file, const std::string& time) {
  model::VersionStamp at;
  if (!parse_utc_time(time, at)) return {};
  // The time is in µs: a version modified within the same µs, before the use, is still held.
  at.nsec += 999;
  if (at.nsec > 999'999'999) at.nsec -= 1'000'000'000, ++at.sec;
  std::string held;
  for (auto& ver : versions_of(v, file)) {
    model::VersionStamp s;
    if (stamp_of(ver, s) && s <= at) held = std::move(ver);
  }
  return held;
}

Status choose_version(View& v, const std::string& file, const std::string& spec, VersionChoice& out) {
  std::vector<std::string> versions = versions_of(v, file);
  out = VersionChoice{file, 0, static_cast<int>(versions.size())};
  const std::string name = v.entity_label(file, true);
  if (versions.empty()) {
    if (spec.empty()) return Status::success();
    return Status::error(name + "@" + spec + ": no version of " + name + " is recorded");
  }
  std::size_t pick = versions.size() - 1;
  if (all_digits(spec)) {
    std::uint64_t n = rdf::parse_u64(spec).value_or(0);
    if (n == 0 || n > versions.size())
      return Status::error(name + "@" + spec + ": " + name + " has " + std::to_string(versions.size()) +
                           " version(s), numbered 1 (oldest) to " + std::to_string(versions.size()));
    pick = n - 1;
  } else if (!spec.empty()) {
    model::VersionStamp at;
    if (!parse_utc_time(spec, at))
      return Status::error(name + "@" + spec + ": give a version number (1 = oldest) or a UTC time " +
                           "YYYY-MM-DDTHH:MM[:SS[.fraction]]");
    std::size_t held = versions.size();
    for (std::size_t i = 0; i < versions.size(); ++i) {
      model::VersionStamp s;
      if (stamp_of(versions[i], s) && s <= at) held = i;
    }
    if (held == versions.size())
      return Status::error(name + "@" + spec + ": " + name +
                           " had no recorded version yet then (the first is " +
                           version_time(versions.front()) + ")");
    pick = held;
  }
  out.iri = versions[pick];
  out.ordinal = static_cast<int>(pick) + 1;
  return Status::success();
}

std::string describe_choice(View& v, const VersionChoice& c) {
  std::string label = v.entity_label(c.iri, true);
  if (c.ordinal == 0)
    return c.count == 1 ? label + ", its one version"
           : c.count    ? label + ", all " + std::to_string(c.count) + " versions"
                        : label + " (no versions recorded)";
  return label + ", version " + std::to_string(c.ordinal) + " of " + std::to_string(c.count);
}

Status lineage_root(View& v, const LineageAsk& ask, std::string& iri, std::string& answered) {
  const std::string& arg = ask.arg;
  std::string spec;
  Status s = v.resolve(arg, iri);
  std::size_t at = arg.rfind('@');
  if (!s.ok && at != std::string::npos && at > 0 && arg.find('/', at) == std::string::npos) {
    std::string file;
    if (v.resolve(arg.substr(0, at), file).ok) {
      s = Status::success();
      iri = file;
      spec = arg.substr(at + 1);
    }
  }
  if (!s.ok) return s;
  bool file = v.file_of(iri) == iri && !v.is_version(iri);
  if (!spec.empty() && !file) return Status::error(arg + ": only a file has versions to choose from");
  if (!file) return s;
  if (ask.all_versions || (ask.down_only && spec.empty())) {
    if (!spec.empty())
      return Status::error(ask.command + ": " + arg + " names one version; --all-versions asks for all");
    answered = describe_choice(v, {iri, 0, static_cast<int>(versions_of(v, iri).size())});
    return s;
  }
  VersionChoice c;
  s = choose_version(v, iri, spec, c);
  if (!s.ok) return s;
  iri = c.iri;
  answered = describe_choice(v, c);
  return s;
}

}  // namespace provio::query
