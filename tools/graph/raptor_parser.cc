// Parsing with raptor (see raptor_parser.h).
#include "graph/raptor_parser.h"

#include <filesystem>

#include "graph/reader.h"
#include "graph/terms.h"

namespace provio::rdf {
namespace {

std::string file_uri(const std::string& path) {
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(path, ec);
  return "file://" + (ec ? path : abs.string());
}

}  // namespace

Raptor::Raptor() {
  world_ = raptor_new_world();
  raptor_world_open(world_);
  raptor_world_set_log_handler(world_, this, &Raptor::log);
}

bool Raptor::parse(const char* syntax, FileContext& ctx, const std::function<bool(std::string_view&)>& next) {
  raptor_parser* parser = raptor_new_parser(world_, syntax);
  if (!parser) {
    ctx.message(0, 0, std::string("no raptor parser '") + syntax + "'");
    ctx.report.damaged = true;
    return false;
  }
  ctx_ = &ctx;
  parser_ = parser;
  failed_ = false;
  raptor_parser_set_statement_handler(parser, this, &Raptor::statement);
  std::string base = file_uri(*ctx.path);
  raptor_uri* uri = raptor_new_uri(world_, reinterpret_cast<const unsigned char*>(base.c_str()));
  raptor_parser_parse_start(parser, uri);
  std::string_view chunk;
  bool more = true;
  while (more && !failed_) {
    more = next(chunk);
    int rc = raptor_parser_parse_chunk(parser, reinterpret_cast<const unsigned char*>(chunk.data()),
                                       chunk.size(), more ? 0 : 1);
    if (rc) failed_ = true;
  }
  raptor_free_uri(uri);
  raptor_free_parser(parser);
  ctx_ = nullptr;
  parser_ = nullptr;
  return !failed_;
}

void Raptor::log(void* data, raptor_log_message* m) {
  auto* self = static_cast<Raptor*>(data);
  FileContext* ctx = self->ctx_;
  if (!ctx) return;
  bool error = m->level >= RAPTOR_LOG_LEVEL_ERROR;
  std::uint64_t line = 0;
  int column = 0;
  if (m->locator) {
    line = m->locator->line > 0 ? static_cast<std::uint64_t>(m->locator->line) : 0;
    column = m->locator->column;
  }
  if (ctx->line_override) line = ctx->line_override;
  std::string text = m->text ? m->text : "unknown raptor error";
  if (ctx->capture) {
    if (error && !self->failed_) ctx->captured = text, ctx->captured_column = column;
    self->failed_ |= error;
    return;
  }
  if (error) {
    if (self->failed_) return;  // raptor's follow-up messages about the same failure
    self->failed_ = true;
    ctx->report.damaged = true;
    text += ctx->error_suffix;
  }
  ctx->message(line, column, text);
}

void Raptor::term_text(FileContext& ctx, raptor_term* t, std::string& out) {
  out.clear();
  switch (t->type) {
    case RAPTOR_TERM_TYPE_URI: {
      std::size_t n = 0;
      const unsigned char* s = raptor_uri_as_counted_string(t->value.uri, &n);
      append_iri(out, std::string_view(reinterpret_cast<const char*>(s), n));
      break;
    }
    case RAPTOR_TERM_TYPE_LITERAL: {
      const raptor_term_literal_value& l = t->value.literal;
      std::string_view dt, lang;
      std::size_t n = 0;
      if (l.datatype) dt = reinterpret_cast<const char*>(raptor_uri_as_counted_string(l.datatype, &n));
      if (l.language) lang = std::string_view(reinterpret_cast<const char*>(l.language), l.language_len);
      append_literal(out, std::string_view(reinterpret_cast<const char*>(l.string), l.string_len), dt, lang);
      break;
    }
    case RAPTOR_TERM_TYPE_BLANK:
      out = ctx.blank_prefix;
      out.append(reinterpret_cast<const char*>(t->value.blank.string), t->value.blank.string_len);
      break;
    default: break;
  }
}

void Raptor::statement(void* data, raptor_statement* st) {
  auto* self = static_cast<Raptor*>(data);
  FileContext& ctx = *self->ctx_;
  term_text(ctx, st->subject, self->s_);
  term_text(ctx, st->predicate, self->p_);
  term_text(ctx, st->object, self->o_);
  if (self->s_.empty() || self->p_.empty() || self->o_.empty()) return;
  if (!valid_utf8(self->s_) || !valid_utf8(self->p_) || !valid_utf8(self->o_)) {
    self->drop_statement(ctx, "invalid UTF-8 in a term");
    return;
  }
  if (raptor_refuses_iri(self->s_) || raptor_refuses_iri(self->p_) || raptor_refuses_iri(self->o_)) {
    self->drop_statement(ctx, "an rdf:_ IRI that is no container ordinal (N-Triples readers refuse it)");
    return;
  }
  if (ctx.only && !ctx.only->keeps(self->p_)) {
    ctx.graph->terms.intern(self->p_);  // as the fast path does (reader.h, PredicateFilter)
    return;
  }
  if (self->held_) {
    self->held_->push_back({self->s_, self->p_, self->o_});
    return;
  }
  ctx.graph->add(self->s_, self->p_, self->o_);
  ++ctx.report.triples;
}

void Raptor::drop_statement(FileContext& ctx, const char* text) {
  if (ctx.capture) {
    if (!failed_) ctx.captured = text, ctx.captured_column = 0;
    failed_ = true;
    return;
  }
  raptor_locator* where = parser_ ? raptor_parser_get_locator(parser_) : nullptr;
  std::uint64_t line = ctx.line_override          ? ctx.line_override
                       : where && where->line > 0 ? static_cast<std::uint64_t>(where->line)
                                                  : 0;
  ctx.report.damaged = true;
  ctx.message(line, 0, std::string(text) + "; statement dropped");
}

}  // namespace provio::rdf
