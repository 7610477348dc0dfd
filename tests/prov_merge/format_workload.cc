// A real program for the format-equivalence test (prov_merge.format_equivalence): records, with
// fixed times, every kind of record the core writes — every I/O operation on every entity class,
// second entities (rename, copy, link), every transfer flag, several flushes (summary parts), a
// second thread, and every workflow-level record — so that the merged graph of its raw files can
// be compared question by question between raw-file formats (docs/format.md).
//
//   format_workload DIR    DIR is only a name prefix for the entities; nothing is created there
//
// Times are fixed (start 2020-01-01, elapsed in whole µs), so two runs differ only in what names
// the run itself (host, pid, start time, thread ids), which the test normalises.
#include <provio/provio.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

#include "model/api_names.h"
#include "model/entities.h"
#include "model/event.h"
#include "store/recorder.h"

namespace {

using provio::model::EntityClass;
using provio::model::EntityId;
using provio::model::Event;
using provio::model::Op;

constexpr std::uint64_t kT0 = 1577836800ull * 1000000000ull;  // 2020-01-01T00:00:00Z

std::uint64_t g_tick = 0;

void io(Op op, const char* api, EntityId e, std::uint64_t bytes, std::uint8_t flags = 0,
        EntityId other = provio::model::kNoEntity, std::int64_t offset = provio::model::kNoOffset) {
  std::uint64_t start = kT0 + (++g_tick) * 1000000ull;
  provio::store::record(Event{op, flags, provio::model::api_id(api), e, other, bytes, offset, start,
                              (g_tick % 7 + 1) * 1000ull});
}

// The I/O of one round: HDF5 objects of every class, POSIX calls on plain files, MPI-IO flags.
void round_of_io(const std::string& dir, int round) {
  using namespace provio::model;
  EntityId h5 = canonical_file_entity(dir + "/data.h5");
  EntityId root = object_entity(h5, "/", EntityClass::kGroup);
  EntityId group = object_entity(h5, "/run 1", EntityClass::kGroup);
  EntityId ds = object_entity(h5, "/run 1/temperature", EntityClass::kDataset);
  EntityId moved = object_entity(h5, "/run 1/temp.final", EntityClass::kDataset);
  EntityId dtype = object_entity(h5, "/t", EntityClass::kDatatype);
  EntityId link = object_entity(h5, "/run 1/latest", EntityClass::kLink);
  EntityId obj = object_entity(h5, "/x", EntityClass::kObject);
  EntityId attr = attribute_entity(ds, "units");
  EntityId fattr = attribute_entity(root, "version");
  EntityId csv = canonical_file_entity(dir + "/in put.csv");
  EntityId log = canonical_file_entity(dir + "/out.log");
  EntityId sub = canonical_file_entity(dir + "/sub", EntityClass::kDirectory);

  if (round == 0) {
    io(Op::kCreate, "H5Fcreate", h5, 0);
    io(Op::kCreate, "H5Gcreate2", group, 0);
    io(Op::kCreate, "H5Dcreate2", ds, 0);
    io(Op::kCreate, "H5Tcommit2", dtype, 0);
    io(Op::kCreate, "H5Acreate2", attr, 0);
    io(Op::kCreate, "H5Acreate2", fattr, 0);
    io(Op::kCreate, "H5Lcreate_hard", ds, 0, 0, link);
    io(Op::kCreate, "mkdir", sub, 0);
  }
  for (int i = 0; i < 3; ++i) {
    io(Op::kWrite, "H5Dwrite", ds, 4096, kFlagCollective);
    io(Op::kWrite, "H5Dwrite", ds, 512, kFlagIndependent);
    io(Op::kRead, "H5Dread", ds, 1024, kFlagIndependent);
    io(Op::kWrite, "pwrite", h5, 4096, kFlagNested, kNoEntity, 4096 * i);
    io(Op::kRead, "read", csv, 100);
    io(Op::kWrite, "fwrite", log, 17);
  }
  io(Op::kWrite, "H5Awrite", attr, 8);
  io(Op::kRead, "H5Aread", fattr, 4);
  io(Op::kOpen, "H5Oopen", obj, 0);
  io(Op::kAccess, "H5Oget_info3", dtype, 0);
  io(Op::kFlush, "H5Fflush", h5, 0);
  io(Op::kModify, "H5Dset_extent", ds, 0);
  io(Op::kOpen, "open", csv, 0);
  io(Op::kClose, "close", csv, 0);
  io(Op::kAccess, "stat", sub, 0);
  if (round == 2) {
    io(Op::kRename, "H5Lmove", ds, 0, 0, moved);
    io(Op::kCopy, "H5Ocopy", group, 0, 0, object_entity(h5, "/run 2", EntityClass::kGroup));
    io(Op::kRename, "rename", log, 0, 0, canonical_file_entity(dir + "/out.log.1"));
    io(Op::kDelete, "unlink", csv, 0);
    io(Op::kClose, "H5Fclose", h5, 0);
  }
}

void workflow(const std::string& dir) {
  provio_entity_t h5 = provio_file((dir + "/data.h5").c_str());
  provio_entity_t ds = provio_object(h5, "/run 1/temperature", PROVIO_DATASET);
  provio_entity_t ckpt = provio_file((dir + "/model.ckpt").c_str());
  provio_workflow_open("equivalence", "formats");
  provio_program_type("simulation");
  provio_property("site", provio_string("lab \"A\""));
  provio_param_t hp[] = {{"lr", provio_double(0.01)}, {"epochs", provio_uint(3)}};
  provio_config_t cfg = provio_config("train", PROVIO_CONFIG_HYPERPARAMETERS, hp, 2);
  provio_param_t sel[] = {{"subset", provio_string("even")}, {"source", provio_data(ds)}};
  provio_config_t pick = provio_config("pick", PROVIO_CONFIG_DATA_SELECTION, sel, 2);
  provio_task_t t = provio_task_begin("train", 0);
  provio_task_t inner = provio_task_begin("epoch", t);
  provio_task_use_config(t, cfg);
  provio_task_use_config(inner, pick);
  provio_task_input(inner, ds);
  provio_task_parameter(inner, "seed", provio_integer_text("123456789012345678901234567890"));
  provio_task_result(inner, "converged", provio_bool(1));
  provio_task_result(inner, "loss", provio_int(-4));
  provio_metric("loss", 0.25, 1, PROVIO_STAGE_TRAINING);
  provio_metric("accuracy", 0.9, PROVIO_NO_STEP, PROVIO_STAGE_VALIDATION);
  provio_metric("throughput", 12.5, 2, PROVIO_STAGE_NONE);
  provio_dataset("inputs", ds, PROVIO_STAGE_TRAINING);
  provio_task_end(inner);
  provio_model("net", ckpt, cfg, 3);
  provio_task_output(t, ckpt);
  provio_task_end(t);
  // A checkpoint loaded with another learning rate: what `prov-query checkpoints` reports.
  provio_param_t other[] = {{"lr", provio_double(0.1)}, {"epochs", provio_uint(3)}};
  provio_task_t tune = provio_task_begin("finetune", 0);
  provio_task_use_config(tune, provio_config("finetune", PROVIO_CONFIG_HYPERPARAMETERS, other, 2));
  provio_task_input(tune, ckpt);
  provio_task_end(tune);
  provio_workflow_close();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: format_workload DIR\n");
    return 1;
  }
  std::string dir = argv[1];
  for (int round = 0; round < 3; ++round) {
    round_of_io(dir, round);
    provio_flush();
  }
  workflow(dir);
  // A second thread, run after the first's records so that thread numbers are deterministic.
  std::thread([&] {
    using namespace provio::model;
    EntityId f = canonical_file_entity(dir + "/data.h5");
    io(Op::kRead, "H5Dread", object_entity(f, "/run 1/temperature", EntityClass::kDataset), 2048,
       kFlagCollective);
    io(Op::kRead, "pread", canonical_file_entity(dir + "/in put.csv"), 50, 0, kNoEntity, 10);
  }).join();
  return 0;
}
