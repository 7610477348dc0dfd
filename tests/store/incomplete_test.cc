// Loss counts: counted per reason, written once each (the next flush starts from zero), one node
// per reason with its count, nothing when nothing was lost.
#include "store/incomplete.h"

#include <gtest/gtest.h>

#include <string>

namespace provio::store {
namespace {

TEST(Incomplete, LossesAreWrittenOncePerReasonWithTheirCount) {
  std::string out;
  append_losses(out, "urn:run", "urn:run/thread/0/incomplete/1");  // whatever earlier tests left
  out.clear();
  std::uint64_t before = losses(Loss::kSignalHandler);
  count_loss(Loss::kSignalHandler);
  count_loss(Loss::kSignalHandler, 2);
  count_loss(Loss::kUnresolvedName);
  EXPECT_EQ(losses(Loss::kSignalHandler), before + 3);
  append_losses(out, "urn:run", "urn:run/thread/0/incomplete/2");
  EXPECT_EQ(out,
            "<urn:run> provio:incomplete <urn:run/thread/0/incomplete/2/signal-handler> .\n"
            "<urn:run/thread/0/incomplete/2/signal-handler> rdf:type provio:Incomplete .\n"
            "<urn:run/thread/0/incomplete/2/signal-handler> provio:reason \"signal-handler\" .\n"
            "<urn:run/thread/0/incomplete/2/signal-handler> provio:lost \"3\"^^xsd:unsignedLong .\n"
            "<urn:run> provio:incomplete <urn:run/thread/0/incomplete/2/unresolved-name> .\n"
            "<urn:run/thread/0/incomplete/2/unresolved-name> rdf:type provio:Incomplete .\n"
            "<urn:run/thread/0/incomplete/2/unresolved-name> provio:reason \"unresolved-name\" .\n"
            "<urn:run/thread/0/incomplete/2/unresolved-name> provio:lost \"1\"^^xsd:unsignedLong .\n");
  out.clear();
  append_losses(out, "urn:run", "urn:run/thread/0/incomplete/3");
  EXPECT_EQ(out, "");
}

}  // namespace
}  // namespace provio::store
