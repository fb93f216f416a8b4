#include "mpi/MpiSession.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#ifdef ISO_HAVE_MPI
#include <mpi.h>

#include "mpi/MpiCommunicator.h"
#endif

namespace iso {

namespace {

// The ranks a launcher started, from the environment it gives its processes (0: not launched by MPI).
int launchedRanks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* value = std::getenv(name)) return std::max(1, std::atoi(value));
  return std::getenv("PMIX_RANK") ? 1 : 0;
}

}  // namespace

bool MpiSession::available() {
#ifdef ISO_HAVE_MPI
  return true;
#else
  return false;
#endif
}

#ifdef ISO_HAVE_MPI

MpiSession::MpiSession(int& argc, char**& argv) {
  if (launchedRanks() == 0) return;
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw std::runtime_error("MPI_Init_thread failed: the MPI launcher's environment is not usable");
  started_ = true;
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    started_ = false;
    throw std::runtime_error("this MPI library cannot be called from the main thread of a threaded program "
                             "(MPI_THREAD_FUNNELED)");
  }
  ranks_ = worldCommunicator();
}

MpiSession::~MpiSession() {
  ranks_.reset();
  if (started_) MPI_Finalize();
}

void MpiSession::abort(int status) const {
  if (started_) MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}

std::string MpiSession::library() { return mpiLibraryVersion(); }

#else

MpiSession::MpiSession(int&, char**&) {
  if (launchedRanks() > 1)
    throw std::runtime_error("this iso3dfd was built without MPI, so its " + std::to_string(launchedRanks()) +
                             " processes cannot share one grid: install Open MPI (libopenmpi-dev; scripts/setup.sh) "
                             "and rebuild, or run without mpirun");
}

MpiSession::~MpiSession() = default;

void MpiSession::abort(int status) const { std::_Exit(status); }

std::string MpiSession::library() { return "none (built without MPI)"; }

#endif

}  // namespace iso
