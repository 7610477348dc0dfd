// The activity index beside a store (see activity_cache.h).
#include "query/activity_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "graph/store_layout.h"
#include "graph/terms.h"
#include "query/table.h"

namespace provio::query {
namespace {

constexpr const char* kCacheMagic = "provio prov-query activity cache v2";
constexpr std::size_t kCacheFields = 19;

void put_field(std::string& line, const std::string& f) {
  append_tsv_field(line, f);
  line += '\t';
}

void split_fields(const std::string& line, std::vector<std::string>& out) {
  out.assign(1, std::string());
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '\t') {
      out.emplace_back();
    } else if (c == '\\' && i + 1 < line.size()) {
      char n = line[++i];
      out.back() += n == 't' ? '\t' : n == 'n' ? '\n' : n;
    } else {
      out.back() += c;
    }
  }
}

void to_line(const ActivityRecord& r, std::string& line) {
  line.clear();
  for (const std::string* f :
       {&r.iri, &r.op, &r.api, &r.entity, &r.file, &r.thread, &r.program, &r.rank, &r.start, &r.end,
        &r.entity_label, &r.file_label, &r.program_label, &r.thread_label})
    put_field(line, *f);
  put_field(line, std::to_string(r.count));
  put_field(line, std::to_string(r.bytes));
  put_field(line, std::to_string(r.elapsed_ns));
  put_field(line, r.nested ? "1" : "0");
  line += "end\n";
}

bool from_fields(std::vector<std::string>& f, ActivityRecord& r) {
  if (f.size() != kCacheFields || f.back() != "end") return false;
  std::string* text[] = {&r.iri,          &r.op,         &r.api,           &r.entity,      &r.file,
                         &r.thread,       &r.program,    &r.rank,          &r.start,       &r.end,
                         &r.entity_label, &r.file_label, &r.program_label, &r.thread_label};
  for (std::size_t i = 0; i < 14; ++i) *text[i] = std::move(f[i]);
  // A number that does not read makes the index unusable: it is rebuilt from the store.
  auto count = rdf::parse_u64(f[14]), bytes = rdf::parse_u64(f[15]), elapsed = rdf::parse_u64(f[16]);
  if (!count || !bytes || !elapsed) return false;
  r.count = *count;
  r.bytes = *bytes;
  r.elapsed_ns = *elapsed;
  r.nested = f[17] == "1";
  return true;
}

}  // namespace

std::string store_fingerprint(const std::string& dir) {
  std::vector<std::string> parts;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    bool redland_file = name.size() >= 3 && name.compare(name.size() - 3, 3, ".db") == 0;
    if (!redland_file && name != rdf::kLinesFile) continue;  // the store's own files
    struct stat st;
    if (::stat(e.path().c_str(), &st) != 0) continue;
    parts.push_back(name + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                    std::to_string(st.st_mtim.tv_nsec));
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += p + " ";
  return out;
}

bool ActivityCacheReader::open(const std::string& dir, const std::string& fingerprint) {
  in_.open(dir + "/" + kActivityCacheName);
  return in_ && std::getline(in_, line_) && line_ == kCacheMagic && std::getline(in_, line_) &&
         line_ == fingerprint;
}

bool ActivityCacheReader::next(ActivityRecord& r) {
  if (!std::getline(in_, line_)) {
    done_ = in_.eof();
    return false;
  }
  std::vector<std::string> fields;
  split_fields(line_, fields);
  r = ActivityRecord();
  return from_fields(fields, r);
}

bool ActivityCacheWriter::open(const std::string& dir, const std::string& fingerprint) {
  dir_ = dir;
  fingerprint_ = fingerprint;
  ok_ = out_.open(dir + "/" + kActivityCacheName).ok;
  if (ok_) ok_ = std::fprintf(out_.stream(), "%s\n%s\n", kCacheMagic, fingerprint.c_str()) > 0;
  return ok_;
}

void ActivityCacheWriter::add(const ActivityRecord& r) {
  if (!ok_) return;
  to_line(r, line_);
  ok_ = std::fwrite(line_.data(), 1, line_.size(), out_.stream()) == line_.size();
}

void ActivityCacheWriter::commit() {
  // It holds what the store holds: it gets the mode of the store's own files (store.h).
  struct stat index;
  std::string index_file = rdf::store_mark(dir_, rdf::store_form(dir_));
  mode_t mode = ::stat(index_file.c_str(), &index) == 0 ? index.st_mode & 0777 : 0600;
  if (ok_ && store_fingerprint(dir_) == fingerprint_) (void)out_.commit(mode);
}

}  // namespace provio::query
