/* provio public C API.
 *
 * Most programs need none of it: the HDF5 VOL connector and the POSIX preload library record
 * I/O transparently. This API lets a program (or another I/O layer) record its own I/O events
 * through the same core, into the same per-thread provenance files.
 *
 * Every function is thread-safe, never changes errno, and returns a status instead of aborting.
 */
#ifndef PROVIO_PROVIO_H
#define PROVIO_PROVIO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An entity: a file, directory, HDF5 object or workflow record. 0 means "none". */
typedef uint32_t provio_entity_t;

typedef enum {
  PROVIO_CREATE, PROVIO_OPEN, PROVIO_READ, PROVIO_WRITE, PROVIO_FLUSH, PROVIO_CLOSE,
  PROVIO_RENAME, PROVIO_DELETE, PROVIO_MODIFY, PROVIO_COPY, PROVIO_ACCESS
} provio_op_t;

typedef enum {
  PROVIO_FILE, PROVIO_DIRECTORY, PROVIO_GROUP, PROVIO_DATASET, PROVIO_ATTRIBUTE,
  PROVIO_DATATYPE, PROVIO_LINK, PROVIO_OBJECT
} provio_class_t;

/* Status codes. */
enum { PROVIO_OK = 0, PROVIO_EINVAL = -1, PROVIO_EOFF = -2 };

/* A file or directory by path (relative paths resolve against the working directory). */
provio_entity_t provio_file(const char *path);
/* An object inside an HDF5 file by its full path ("/group/dataset"). */
provio_entity_t provio_object(provio_entity_t file, const char *object_path, provio_class_t cls);
/* An attribute of a file, group, dataset or datatype. */
provio_entity_t provio_attribute(provio_entity_t owner, const char *name);

/* One I/O call: what it did (`op`), which call (`api`, e.g. "MPI_File_write"), on what, how many
 * bytes, when it started (ns since the epoch, wall clock; 0 = now) and how long it took. */
int provio_record_io(provio_op_t op, const char *api, provio_entity_t entity, uint64_t bytes,
                     uint64_t start_ns, uint64_t elapsed_ns);

/* Wall-clock ns since the epoch, the time base of start_ns. */
uint64_t provio_now_ns(void);

/* Writes every thread's buffered provenance to its file now. */
void provio_flush(void);

/* The message of the last failed call on this thread ("" if none). */
const char *provio_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* PROVIO_PROVIO_H */
