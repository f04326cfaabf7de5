// peers/petsc_options.hpp — what the PETSc-based drivers (petsc_gmres, slepc_eigen) do with PETSc's options
// database: an option nobody read (a misspelt one) is refused, so that a comparison never runs a setting other
// than the one asked.
#pragma once
#include <petscsys.h>

namespace ulibc::peers {

// The first option nobody read, named on stderr with `library` ("PETSc", "SLEPc"), and *unused set. Call it after
// the solve: PETSc reads some options (-ksp_view and the like) only at its end.
inline PetscErrorCode find_unused_option(const char* library, bool* unused) {
  PetscFunctionBeginUser;
  PetscInt count = 0;
  char **names = nullptr, **values = nullptr;
  PetscCall(PetscOptionsLeftGet(nullptr, &count, &names, &values));
  *unused = count > 0;
  if (count > 0)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR,
                           "-%s: an option %s did not use (misspelt, or not for this run)\n", names[0], library));
  PetscCall(PetscOptionsLeftRestore(nullptr, &count, &names, &values));
  PetscFunctionReturn(0);
}

}  // namespace ulibc::peers
