/* Every call of the workflow API, from C (so the header is checked as C), with hostile strings,
 * extreme numbers and misuse. check_workflow.py then asserts the exact triples with rdflib.
 * Exit status 1 with a message on stderr when a return code or error message is not as expected. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provio/provio.h"

static int failures = 0;

#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

/* Misuse: the call failed with an error message containing `part`. */
static void expect_error(int rc, const char* part, int line) {
  if (rc != PROVIO_EINVAL || !strstr(provio_last_error(), part)) {
    fprintf(stderr, "line %d: expected EINVAL with \"%s\", got %d \"%s\"\n", line, part, rc,
            provio_last_error());
    ++failures;
  }
}
#define EXPECT_ERROR(call, part) expect_error((call), (part), __LINE__)
#define EXPECT_ERROR0(call, part) expect_error((call) == 0 ? PROVIO_EINVAL : PROVIO_OK, (part), __LINE__)

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <scratch dir>\n", argv[0]);
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/checkpoint.h5", argv[1]);
  provio_entity_t ckpt = provio_file(path);
  snprintf(path, sizeof path, "%s/train data.bin", argv[1]);
  provio_entity_t data = provio_file(path);
  provio_entity_t dset = provio_object(ckpt, "/weights/layer 1", PROVIO_DATASET);
  EXPECT(ckpt && data && dset);

  /* Misuse before anything is open. */
  EXPECT_ERROR(provio_workflow_close(), "no workflow is open");
  EXPECT_ERROR(provio_metric("loss", 1.0, 0, PROVIO_STAGE_TRAINING), "outside a task");
  EXPECT_ERROR(provio_task_end(1), "unknown task 1");
  EXPECT_ERROR(provio_workflow_open("", NULL), "empty workflow name");
  EXPECT_ERROR(provio_workflow_open(NULL, NULL), "empty workflow name");

  errno = 1234;
  EXPECT(provio_workflow_open("sweep \"α\"\n<wf>", "campaign{1}") == PROVIO_OK);
  EXPECT(errno == 1234);
  EXPECT_ERROR(provio_workflow_open("second", NULL), "already open");
  EXPECT(provio_program_type("ML training") == PROVIO_OK);
  EXPECT(provio_property("site", provio_string("nersc")) == PROVIO_OK); /* on the workflow */

  EXPECT(provio_current_task() == 0);
  provio_task_t outer = provio_task_begin("outer", 0);
  EXPECT(outer == 1);
  provio_task_t inner = provio_task_begin("inner \\ task", 0);
  EXPECT(inner == 2);
  EXPECT(provio_current_task() == inner);

  provio_param_t params[] = {
      {"lr", {PROVIO_VALUE_DOUBLE, {.d = 0.001}}},
      {"epochs", {PROVIO_VALUE_INT, {.i = INT64_MIN}}},
      {"seed", {PROVIO_VALUE_UINT, {.u = UINT64_MAX}}},
      {"shuffle", {PROVIO_VALUE_BOOL, {.b = 7}}},
      {"optimizer \"adam\"\n<x>", {PROVIO_VALUE_STRING, {.s = "a\tb\\c\"d\xff\xfe end"}}},
      {"huge", {PROVIO_VALUE_INTEGER, {.s = "-123456789012345678901234567890"}}},
      {"max", {PROVIO_VALUE_DOUBLE, {.d = 1.7976931348623157e308}}},
      {"neg inf", {PROVIO_VALUE_DOUBLE, {.d = -INFINITY}}},
      {"input/file", {PROVIO_VALUE_ENTITY, {.e = data}}},
  };
  size_t nparams = sizeof params / sizeof params[0];
  /* Misuse: nothing of a bad configuration is recorded. */
  provio_param_t bad[] = {{"a", {PROVIO_VALUE_INT, {.i = 1}}}, {"b", {PROVIO_VALUE_DOUBLE, {.d = NAN}}}};
  EXPECT_ERROR0(provio_config("bad", PROVIO_CONFIG_GENERAL, bad, 2), "is NaN");
  provio_param_t dup[] = {{"k", {PROVIO_VALUE_INT, {.i = 1}}}, {"k", {PROVIO_VALUE_INT, {.i = 2}}}};
  EXPECT_ERROR0(provio_config("dup", PROVIO_CONFIG_GENERAL, dup, 2), "given twice");
  provio_param_t nokey[] = {{"", {PROVIO_VALUE_INT, {.i = 1}}}};
  EXPECT_ERROR0(provio_config("nokey", PROVIO_CONFIG_GENERAL, nokey, 1), "empty key");
  provio_param_t badint[] = {{"n", {PROVIO_VALUE_INTEGER, {.s = "12a"}}}};
  EXPECT_ERROR0(provio_config("badint", PROVIO_CONFIG_GENERAL, badint, 1), "not a decimal integer");
  provio_param_t badent[] = {{"n", {PROVIO_VALUE_ENTITY, {.e = 999999}}}};
  EXPECT_ERROR0(provio_config("badent", PROVIO_CONFIG_GENERAL, badent, 1), "unknown entity");
  EXPECT_ERROR0(provio_config("nul", PROVIO_CONFIG_GENERAL, NULL, 3), "no array");
  EXPECT_ERROR0(provio_config("kind", (provio_config_kind_t)9, NULL, 0), "unknown kind");

  provio_config_t hyper = provio_config("hyper", PROVIO_CONFIG_HYPERPARAMETERS, params, nparams);
  EXPECT(hyper == 1); /* the failed calls took no handle */
  provio_config_t sel = provio_config("selection", PROVIO_CONFIG_DATA_SELECTION, NULL, 0);
  EXPECT(sel == 2);

  EXPECT(provio_task_input(0, data) == PROVIO_OK);
  EXPECT(provio_task_output(inner, dset) == PROVIO_OK);
  EXPECT(provio_task_parameter(inner, "batch", provio_int(64)) == PROVIO_OK);
  EXPECT(provio_task_result(0, "final loss", provio_double(0.25)) == PROVIO_OK);
  EXPECT(provio_task_use_config(outer, sel) == PROVIO_OK);
  EXPECT(provio_property("note", provio_integer_text("18446744073709551616")) == PROVIO_OK); /* on inner */
  EXPECT(provio_dataset("training set", data, PROVIO_STAGE_TRAINING) == PROVIO_OK);

  EXPECT(provio_metric("accuracy", 0.5, 1, PROVIO_STAGE_VALIDATION) == PROVIO_OK);
  EXPECT(provio_metric("accuracy", 0.75, 2, PROVIO_STAGE_VALIDATION) == PROVIO_OK);
  EXPECT(provio_metric("loss", 1e-300, PROVIO_NO_STEP, PROVIO_STAGE_NONE) == PROVIO_OK);
  EXPECT(provio_metric("big", INFINITY, INT64_MAX, PROVIO_STAGE_TESTING) == PROVIO_OK);
  EXPECT_ERROR(provio_metric("nan", NAN, 3, PROVIO_STAGE_TRAINING), "is NaN");
  EXPECT_ERROR(provio_metric("", 1.0, 3, PROVIO_STAGE_TRAINING), "empty metric name");
  EXPECT_ERROR(provio_metric("s", 1.0, 3, (provio_stage_t)42), "unknown stage");
  EXPECT(provio_model("mlp", dset, hyper, 2) == PROVIO_OK);
  EXPECT_ERROR(provio_model("bad", 0, hyper, 2), "unknown entity");
  EXPECT_ERROR(provio_model("bad", dset, 77, 2), "unknown configuration");

  /* A string larger than the per-thread arena goes through the overflow path. */
  size_t big = 100000;
  char* long_value = malloc(big + 1);
  for (size_t i = 0; i < big; ++i) long_value[i] = (char)('a' + i % 26);
  long_value[big] = 0;
  EXPECT(provio_task_parameter(0, "long", provio_string(long_value)) == PROVIO_OK);
  free(long_value);

  EXPECT_ERROR(provio_task_end(outer), "has open subtasks");
  EXPECT(provio_task_end(inner) == PROVIO_OK);
  EXPECT_ERROR(provio_task_end(inner), "not open on this thread");
  EXPECT_ERROR(provio_task_input(inner, data), "not open on this thread");
  EXPECT(provio_task_end(outer) == PROVIO_OK);
  EXPECT_ERROR(provio_task_end(outer), "ended twice");
  EXPECT_ERROR(provio_task_parameter(0, "k", provio_int(1)), "no task is open");
  EXPECT_ERROR0(provio_task_begin("", 0), "empty task name");
  EXPECT_ERROR0(provio_task_begin("x", 999), "unknown parent task 999");
  EXPECT_ERROR(provio_property("", provio_int(1)), "empty key");
  EXPECT_ERROR(provio_program_type(""), "empty type name");

  /* Explicit parent, and a model without a task. */
  provio_task_t child = provio_task_begin("child of outer", outer);
  EXPECT(child == 3);
  EXPECT(provio_task_end(child) == PROVIO_OK);
  EXPECT(provio_model(NULL, ckpt, 0, PROVIO_NO_STEP) == PROVIO_OK);

  EXPECT(provio_workflow_close() == PROVIO_OK);
  EXPECT_ERROR(provio_workflow_close(), "no workflow is open");
  EXPECT(provio_property("after", provio_bool(0)) == PROVIO_OK); /* on the program */

  /* Deep nesting is refused past the fixed depth, not crashed. */
  provio_task_t stack[70];
  int depth = 0;
  for (; depth < 70; ++depth) {
    stack[depth] = provio_task_begin("deep", 0);
    if (!stack[depth]) break;
  }
  EXPECT(depth == 64);
  EXPECT(strstr(provio_last_error(), "nested tasks") != NULL);
  while (depth > 0) EXPECT(provio_task_end(stack[--depth]) == PROVIO_OK);

  provio_flush();
  return failures ? 1 : 0;
}
