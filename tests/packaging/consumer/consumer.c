/* A program of another project, built against an installed provio (CMake package or
 * pkg-config): records one metric through the workflow API. Exit 1 when a call fails. */
#include <provio/provio.h>
#include <stdio.h>

int main(void) {
  provio_task_t task = provio_task_begin("consumer", 0);
  if (!task || provio_metric("consumer_loss", 0.25, 1, PROVIO_STAGE_TRAINING) != PROVIO_OK ||
      provio_task_end(task) != PROVIO_OK) {
    fprintf(stderr, "consumer: %s\n", provio_last_error());
    return 1;
  }
  provio_flush();
  return 0;
}
