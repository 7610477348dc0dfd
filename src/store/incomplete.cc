// The incomplete nodes (see incomplete.h).
#include "store/incomplete.h"

#include "store/turtle.h"

namespace provio::store {

void append_losses(std::string& out, const std::string& exec_iri, const std::string& node_base) {
  for (int i = 0; i < static_cast<int>(Loss::kCount_); ++i) {
    Loss loss = static_cast<Loss>(i);
    std::uint64_t n = model::take_unwritten_losses(loss);
    if (n == 0) continue;
    std::string_view reason = model::loss_reason(loss);
    std::string node = node_base + "/" + std::string(reason);
    Turtle(out).iri(exec_iri).name("provio:incomplete").iri(node).end();
    Turtle(out).iri(node).name("rdf:type").name("provio:Incomplete").end();
    Turtle(out).iri(node).name("provio:reason").str(reason).end();
    Turtle(out).iri(node).name("provio:lost").u64(n).end();
  }
}

}  // namespace provio::store
