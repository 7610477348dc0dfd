// Cost of workflow records against an I/O event: the rule is that a metric or task record
// costs no more than an I/O event (thread-local, no lock). Not a test (timings); run by hand:
//   PROVIO_DIR=$(mktemp -d) <build>/tests/api/workflow_bench --benchmark_min_time=0.2
// Summary level, 1 thread; the flushes of full buffers are included in every figure.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/entities.h"
#include "provio/provio.h"
#include "store/recorder.h"

namespace {

using namespace provio;

// Baseline: what the VOL connector and the preload shim do per call.
void BM_IoEvent(benchmark::State& state) {
  static const model::ApiId api = model::api_id("bench_write");
  std::vector<model::EntityId> ents;
  for (int i = 0; i < 64; ++i)
    ents.push_back(model::canonical_file_entity("/bench/wf/f" + std::to_string(i)));
  model::Event ev;
  ev.op = model::Op::kWrite;
  ev.api = api;
  ev.bytes = 4096;
  ev.elapsed_ns = 100;
  ev.start_ns = model::clock::wall_ns();
  std::size_t i = 0;
  for (auto _ : state) {
    ev.entity = ents[i++ & 63];
    store::record(ev);
  }
}
BENCHMARK(BM_IoEvent);

void BM_Metric(benchmark::State& state) {
  provio_task_t t = provio_task_begin("bench", 0);
  int64_t step = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(provio_metric("accuracy", 0.5, step++, PROVIO_STAGE_VALIDATION));
  provio_task_end(t);
}
BENCHMARK(BM_Metric);

void BM_TaskBeginEnd(benchmark::State& state) {
  for (auto _ : state) {
    provio_task_t t = provio_task_begin("epoch", 0);
    benchmark::DoNotOptimize(provio_task_end(t));
  }
}
BENCHMARK(BM_TaskBeginEnd);

void BM_TaskParameter(benchmark::State& state) {
  provio_task_t t = provio_task_begin("bench", 0);
  for (auto _ : state)
    benchmark::DoNotOptimize(provio_task_parameter(t, "learning_rate", provio_double(0.01)));
  provio_task_end(t);
}
BENCHMARK(BM_TaskParameter);

}  // namespace

BENCHMARK_MAIN();
