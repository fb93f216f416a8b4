#include "core/Communicator.h"

#include <exception>
#include <utility>

namespace iso {

namespace {
std::shared_ptr<Communicator>& ranksOfProcess() {
  static std::shared_ptr<Communicator> ranks;
  return ranks;
}
}  // namespace

void onEveryRank(Communicator* ranks, const std::function<void()>& work) {
  if (!ranks || ranks->size() == 1) return work();
  std::optional<Communicator::RankError> first;
  try {
    work();
  } catch (const std::exception& e) {
    first = ranks->firstError(std::string(e.what()));
    if (first->rank == ranks->rank()) std::throw_with_nested(RanksFailed(first->message, first->rank));
  }
  if (!first) first = ranks->firstError(std::nullopt);
  if (first) throw RanksFailed("rank " + std::to_string(first->rank) + ": " + first->message, first->rank);
}

std::shared_ptr<Communicator> processRanks() { return ranksOfProcess(); }

void setProcessRanks(std::shared_ptr<Communicator> ranks) { ranksOfProcess() = std::move(ranks); }

bool isReportingProcess() { return !ranksOfProcess() || ranksOfProcess()->rank() == 0; }

}  // namespace iso
