// The C ABI of libprovio's recording API (include/provio/provio.h): argument checks, then the
// internal calls. Errors are reported through return codes and provio_last_error().
#include <cerrno>
#include <string>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/entities.h"
#include "model/errno_saver.h"
#include "provio/provio.h"
#include "store/recorder.h"

namespace {

thread_local std::string tls_error;

int fail(const char* message) {
  tls_error = message;
  return PROVIO_EINVAL;
}

}  // namespace

namespace provio::api {
// The workflow API (src/api/workflow.cc) reports through the same per-thread slot.
void set_last_error(const char* message) {
  tls_error = message;
}
}  // namespace provio::api

extern "C" {

provio_entity_t provio_file(const char* path) {
  provio::model::ErrnoSaver saver;
  if (!path || !*path) return fail("provio_file: empty path"), 0;
  return provio::model::file_entity(path);
}

provio_entity_t provio_object(provio_entity_t file, const char* object_path, provio_class_t cls) {
  provio::model::ErrnoSaver saver;
  if (!object_path || !*object_path) return fail("provio_object: empty object path"), 0;
  if (cls < PROVIO_FILE || cls > PROVIO_OBJECT) return fail("provio_object: unknown class"), 0;
  if (!provio::model::entity(file)) return fail("provio_object: unknown file entity"), 0;
  return provio::model::object_entity(file, object_path, static_cast<provio::model::EntityClass>(cls));
}

provio_entity_t provio_attribute(provio_entity_t owner, const char* name) {
  provio::model::ErrnoSaver saver;
  if (!name) return fail("provio_attribute: no name"), 0;
  if (!provio::model::entity(owner)) return fail("provio_attribute: unknown owner entity"), 0;
  return provio::model::attribute_entity(owner, name);
}

int provio_record_io(provio_op_t op, const char* api, provio_entity_t entity, uint64_t bytes,
                     uint64_t start_ns, uint64_t elapsed_ns) {
  provio::model::ErrnoSaver saver;
  if (op < PROVIO_CREATE || op > PROVIO_ACCESS) return fail("provio_record_io: unknown operation");
  if (!api || !*api) return fail("provio_record_io: empty API name");
  if (!provio::model::entity(entity)) return fail("provio_record_io: unknown entity");
  if (!provio::store::enabled()) return PROVIO_EOFF;
  provio::model::Event ev;
  ev.op = static_cast<provio::model::Op>(op);
  ev.api = provio::model::api_id(api);
  ev.entity = entity;
  ev.bytes = bytes;
  ev.start_ns = start_ns ? start_ns : provio::model::clock::wall_ns();
  ev.elapsed_ns = elapsed_ns;
  provio::store::record(ev);
  return PROVIO_OK;
}

uint64_t provio_now_ns(void) {
  return provio::model::clock::wall_ns();
}

void provio_flush(void) {
  provio::model::ErrnoSaver saver;
  provio::store::flush_all_to_files();
}

const char* provio_last_error(void) {
  return tls_error.c_str();
}

}  // extern "C"
