// Fuzz assertions (see fuzz_check.h).
#include "fuzz_check.h"

#include <raptor2.h>

#include <cstdio>
#include <cstdlib>

namespace provio::fuzz {
namespace {

struct Parse {
  std::size_t statements = 0;
  bool error = false;
  std::string* last_literal = nullptr;
};

void on_statement(void* data, raptor_statement* st) {
  auto* p = static_cast<Parse*>(data);
  ++p->statements;
  if (p->last_literal && st->object->type == RAPTOR_TERM_TYPE_LITERAL) {
    const raptor_term_literal_value& l = st->object->value.literal;
    p->last_literal->assign(reinterpret_cast<const char*>(l.string), l.string_len);
  }
}

void on_log(void* data, raptor_log_message* m) {
  if (m->level >= RAPTOR_LOG_LEVEL_ERROR) static_cast<Parse*>(data)->error = true;
}

}  // namespace

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz assertion failed: %s\n", what);
  std::abort();
}

std::size_t parse_ntriples(std::string_view text, std::string* last_literal) {
  static raptor_world* world = [] {
    raptor_world* w = raptor_new_world();
    raptor_world_open(w);
    return w;
  }();
  Parse p;
  p.last_literal = last_literal;
  raptor_world_set_log_handler(world, &p, on_log);
  raptor_parser* parser = raptor_new_parser(world, "ntriples");
  raptor_parser_set_statement_handler(parser, &p, on_statement);
  raptor_uri* base = raptor_new_uri(world, reinterpret_cast<const unsigned char*>("urn:fuzz:"));
  raptor_parser_parse_start(parser, base);
  raptor_parser_parse_chunk(parser, reinterpret_cast<const unsigned char*>(text.data()), text.size(), 1);
  raptor_free_uri(base);
  raptor_free_parser(parser);
  raptor_world_set_log_handler(world, nullptr, nullptr);
  require(!p.error, "raptor rejects the N-Triples written");
  return p.statements;
}

}  // namespace provio::fuzz
