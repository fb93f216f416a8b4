#pragma once
// Communicator (core/Communicator.h) over MPI: point-to-point transfers by MPI_Isend/MPI_Irecv from and
// into the caller's memory (page-locked host memory of the slabs' devices), memory shared by the ranks of
// a host as an MPI-3 shared-memory window, collectives by MPI_Allgather(v), MPI_Allreduce and MPI_Bcast. Every call's status is checked (the communicator returns
// errors instead of aborting) and thrown as std::runtime_error naming the call. Messages longer than an
// int counts go in pieces. Only in builds with MPI (ISO_HAVE_MPI); made by MpiSession.
#include <memory>
#include <string>

#include "core/Communicator.h"

namespace iso {

// The ranks of MPI_COMM_WORLD (a duplicate, so that no other library's messages mix with these).
std::shared_ptr<Communicator> worldCommunicator();
// The library's name and version, e.g. "Open MPI v4.1.4".
std::string mpiLibraryVersion();

}  // namespace iso
