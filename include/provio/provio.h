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
  PROVIO_CREATE,
  PROVIO_OPEN,
  PROVIO_READ,
  PROVIO_WRITE,
  PROVIO_FLUSH,
  PROVIO_CLOSE,
  PROVIO_RENAME,
  PROVIO_DELETE,
  PROVIO_MODIFY,
  PROVIO_COPY,
  PROVIO_ACCESS
} provio_op_t;

typedef enum {
  PROVIO_FILE,
  PROVIO_DIRECTORY,
  PROVIO_GROUP,
  PROVIO_DATASET,
  PROVIO_ATTRIBUTE,
  PROVIO_DATATYPE,
  PROVIO_LINK,
  PROVIO_OBJECT
} provio_class_t;

/* Status codes. */
enum { PROVIO_OK = 0, PROVIO_EINVAL = -1, PROVIO_EOFF = -2 };

/* A file or directory by path (relative paths resolve against the working directory). */
provio_entity_t provio_file(const char* path);
/* An object inside an HDF5 file by its full path ("/group/dataset"). */
provio_entity_t provio_object(provio_entity_t file, const char* object_path, provio_class_t cls);
/* An attribute of a file, group, dataset or datatype. */
provio_entity_t provio_attribute(provio_entity_t owner, const char* name);

/* One I/O call: what it did (`op`), which call (`api`, e.g. "MPI_File_write"), on what, how many
 * bytes, when it started (ns since the epoch, wall clock; 0 = now) and how long it took. */
int provio_record_io(provio_op_t op, const char* api, provio_entity_t entity, uint64_t bytes,
                     uint64_t start_ns, uint64_t elapsed_ns);

/* Wall-clock ns since the epoch, the time base of start_ns. */
uint64_t provio_now_ns(void);

/* Writes every thread's buffered provenance to its file now. */
void provio_flush(void);

/* The message of the last failed call on this thread ("" if none). */
const char* provio_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* PROVIO_PROVIO_H */

/* ==== Workflow-level provenance (docs/workflow-api.md) ==========================================
 *
 * What the program declares about itself: workflow, tasks, configurations (hyperparameters),
 * metrics, models / checkpoints, a program type and extra properties. Recorded into the same
 * per-thread files as the I/O, on the same thread-local lock-free path; data references
 * (provio_file / provio_object entities) are the IRIs the VOL connector and preload shim use.
 *
 * Every call validates its arguments before recording anything: on misuse it records nothing,
 * returns PROVIO_EINVAL (or 0 for a handle) and sets provio_last_error(). Handles stay valid and
 * misuse is still detected when recording is off (PROVIO_LEVEL=off; calls then return
 * PROVIO_EOFF or a handle). Tasks are per thread and strictly nested: a task is ended on the
 * thread that began it, innermost first. None of these calls changes errno.
 */
#ifndef PROVIO_PROVIO_WORKFLOW_H
#define PROVIO_PROVIO_WORKFLOW_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Handles: 1, 2, … per process; 0 means "none" (or an error, for the calls returning one). */
typedef uint64_t provio_task_t;
typedef uint64_t provio_config_t;

/* provio_metric / provio_model step: "no step given". */
#define PROVIO_NO_STEP INT64_MIN

/* Learning stage (PROV-ML LearningStageType). */
typedef enum {
  PROVIO_STAGE_NONE,
  PROVIO_STAGE_TRAINING,
  PROVIO_STAGE_VALIDATION,
  PROVIO_STAGE_TESTING
} provio_stage_t;

/* What a configuration is (all are provio:Configuration). */
typedef enum {
  PROVIO_CONFIG_GENERAL,         /* settings of a run */
  PROVIO_CONFIG_HYPERPARAMETERS, /* also provio:HyperparameterSetting (PROV-ML) */
  PROVIO_CONFIG_DATA_SELECTION   /* also provio:DataSelection (data preselection) */
} provio_config_kind_t;

/* A typed value. Strings are copied; they need only live for the call. */
typedef enum {
  PROVIO_VALUE_INT,     /* v.i  -> xsd:long */
  PROVIO_VALUE_UINT,    /* v.u  -> xsd:unsignedLong */
  PROVIO_VALUE_DOUBLE,  /* v.d  -> xsd:double; NaN is refused, +-infinity allowed */
  PROVIO_VALUE_BOOL,    /* v.b  -> xsd:boolean (nonzero = true) */
  PROVIO_VALUE_STRING,  /* v.s  -> string (any bytes; invalid UTF-8 shown as U+FFFD) */
  PROVIO_VALUE_INTEGER, /* v.s  -> xsd:integer of any size: decimal digits, optional '-' */
  PROVIO_VALUE_ENTITY   /* v.e  -> a data reference (file / HDF5 object IRI) */
} provio_value_type_t;

typedef struct {
  provio_value_type_t type;
  union {
    int64_t i;
    uint64_t u;
    double d;
    int b;
    const char* s;
    provio_entity_t e;
  } v;
} provio_value_t;

typedef struct {
  const char* key; /* non-empty, unique within one configuration */
  provio_value_t value;
} provio_param_t;

/* Value constructors. */
provio_value_t provio_int(int64_t v);
provio_value_t provio_uint(uint64_t v);
provio_value_t provio_double(double v);
provio_value_t provio_bool(int v);
provio_value_t provio_string(const char* v);
provio_value_t provio_integer_text(const char* decimal);
provio_value_t provio_data(provio_entity_t e);

/* Names the workflow this process runs (campaign may be NULL). One workflow is open per process
 * at a time. Also attaches provio:workflow / provio:campaign to the program execution. */
int provio_workflow_open(const char* name, const char* campaign);
int provio_workflow_close(void);

/* Begins a task on this thread. parent 0: the innermost open task of this thread, if any. */
provio_task_t provio_task_begin(const char* name, provio_task_t parent);
/* Ends an open task of this thread (innermost first). Ending it twice is an error. */
int provio_task_end(provio_task_t task);
/* The innermost open task of this thread, 0 if none. */
provio_task_t provio_current_task(void);
/* Inputs and outputs of an open task of this thread (task 0: the innermost one). */
int provio_task_input(provio_task_t task, provio_entity_t data);
int provio_task_output(provio_task_t task, provio_entity_t data);
int provio_task_parameter(provio_task_t task, const char* key, provio_value_t value);
int provio_task_result(provio_task_t task, const char* key, provio_value_t value);
int provio_task_use_config(provio_task_t task, provio_config_t config);

/* The same for n entries at once: all are checked (keys non-empty and unique, values valid) before
 * any is recorded. */
int provio_task_parameters(provio_task_t task, const provio_param_t* params, size_t n);
int provio_task_results(provio_task_t task, const provio_param_t* params, size_t n);

/* Records a configuration of n key -> value entries; the innermost open task of this thread, if
 * any, uses it. Returns its handle (for provio_model / provio_task_use_config), 0 on error. */
provio_config_t provio_config(const char* name, provio_config_kind_t kind, const provio_param_t* params,
                              size_t n);

/* A metric of the innermost open task of this thread (an error outside a task).
 * step: epoch / iteration, or PROVIO_NO_STEP. */
int provio_metric(const char* name, double value, int64_t step, provio_stage_t stage);

/* A model or checkpoint written to `data` (a file or HDF5 object entity), trained with `config`
 * (0: none), at `step` (or PROVIO_NO_STEP); name may be NULL. Generated by the innermost open
 * task of this thread, if any. */
int provio_model(const char* name, provio_entity_t data, provio_config_t config, int64_t step);
/* A dataset used for a learning stage; used by the innermost open task of this thread, if any. */
int provio_dataset(const char* name, provio_entity_t data, provio_stage_t stage);

/* Tags the program execution with a type (PROV-IO+ provio:Type), e.g. "training". */
int provio_program_type(const char* name);
/* A user-defined property of the innermost open task, else the open workflow, else the program. */
int provio_property(const char* key, provio_value_t value);
int provio_properties(const provio_param_t* params, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* PROVIO_PROVIO_WORKFLOW_H */
