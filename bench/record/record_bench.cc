// Cost of one recording call (provio::store::record) at summary and trace level, 1 and 2 threads,
// and of the workflow records (metric, task, parameter) that the issue holds to the same bound.
// The events rotate over 64 entities of each thread, like an application touching a few files.
// Output goes where PROVIO_DIR says (bench/record/run: a scratch directory, and an unwritable one
// to time the recording path without formatting and writing).
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

void configure(const char* level) {
  setenv("PROVIO_LEVEL", level, 1);
  store::reset_for_testing();
}

void run(benchmark::State& state) {
  static const model::ApiId api = model::api_id("bench_write");
  std::vector<model::EntityId> ents;
  for (int i = 0; i < 64; ++i) {
    ents.push_back(model::canonical_file_entity("/bench/t" + std::to_string(state.thread_index()) + "/f" +
                                                std::to_string(i)));
  }
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
  state.SetItemsProcessed(state.iterations());
}

void BM_RecordSummary(benchmark::State& state) {
  if (state.thread_index() == 0) configure("summary");
  run(state);
}
void BM_RecordTrace(benchmark::State& state) {
  if (state.thread_index() == 0) configure("trace");
  run(state);
}
// For comparison: what timing a call costs the layers anyway (two clock reads).
void BM_StopwatchOnly(benchmark::State& state) {
  for (auto _ : state) {
    model::clock::Stopwatch sw;
    benchmark::DoNotOptimize(sw.elapsed_ns());
  }
}

// Workflow records (summary level, one thread).
void BM_Metric(benchmark::State& state) {
  configure("summary");
  provio_task_t t = provio_task_begin("bench", 0);
  int64_t step = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(provio_metric("accuracy", 0.5, step++, PROVIO_STAGE_VALIDATION));
  }
  provio_task_end(t);
}
void BM_TaskBeginEnd(benchmark::State& state) {
  configure("summary");
  for (auto _ : state) {
    provio_task_t t = provio_task_begin("epoch", 0);
    benchmark::DoNotOptimize(provio_task_end(t));
  }
}
void BM_TaskParameter(benchmark::State& state) {
  configure("summary");
  provio_task_t t = provio_task_begin("bench", 0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(provio_task_parameter(t, "learning_rate", provio_double(0.01)));
  }
  provio_task_end(t);
}

BENCHMARK(BM_RecordSummary)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_RecordTrace)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_StopwatchOnly);
BENCHMARK(BM_Metric);
BENCHMARK(BM_TaskBeginEnd);
BENCHMARK(BM_TaskParameter);

}  // namespace

BENCHMARK_MAIN();
