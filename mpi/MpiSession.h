#pragma once
// The MPI environment of a process: started when the program runs under an MPI launcher (mpirun, srun),
// so that a run without one behaves as ever, and ended with the session. One per process, made first
// thing in main.
#include <memory>
#include <string>

#include "core/Communicator.h"

namespace iso {

class MpiSession {
 public:
  // MPI_Init_thread (MPI calls from the main thread only) when the launcher's environment names the
  // ranks (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK); nothing otherwise. Throws std::runtime_error
  // when launched as several ranks by a program built without MPI.
  MpiSession(int& argc, char**& argv);
  ~MpiSession();  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // The ranks (MPI_COMM_WORLD), or null when the program was not launched by MPI.
  std::shared_ptr<Communicator> ranks() const { return ranks_; }
  // Ends every rank with `status` after an error on this one (MPI_Abort), so that no rank waits for it.
  [[noreturn]] void abort(int status) const;

  // Whether this build has MPI, and its library ("Open MPI v4.1.4", or what it lacks).
  static bool available();
  static std::string library();

 private:
  std::shared_ptr<Communicator> ranks_;
  bool started_ = false;
};

}  // namespace iso
