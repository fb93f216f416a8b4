#include "core/Communicator.h"

#include <exception>
#include <stdexcept>

namespace iso {

void onEveryRank(Communicator* ranks, const std::function<void()>& work) {
  if (!ranks || ranks->size() == 1) return work();
  std::optional<Communicator::RankError> first;
  try {
    work();
  } catch (const std::exception& e) {
    first = ranks->firstError(std::string(e.what()));
    if (first->rank == ranks->rank()) throw;
  }
  if (!first) first = ranks->firstError(std::nullopt);
  if (first) throw std::runtime_error("rank " + std::to_string(first->rank) + ": " + first->message);
}

}  // namespace iso
