# cmake/detect.cmake — searches for the optional dependencies that follow the machine.
#
# CMake keeps what a search found in the cache and does not search again, so a package installed or removed since
# the last configure would go unnoticed (a peer built against a library that is no longer there, or left out
# although it now is). Each search here forgets its cached answer first: every configure sees the machine as it is.

# ulibc_forget(VAR...): drops cached search results, so that the next find_library, find_program or check_* for
# them searches again.
macro(ulibc_forget)
  foreach(ulibc_var ${ARGN})
    unset(${ulibc_var} CACHE)
  endforeach()
endmacro()

# ulibc_pkg_search(PREFIX MODULE [DIR...]): pkg_check_modules for MODULE into PREFIX (QUIET, with an imported
# target), searched again at each configure; with DIRs, PKG_CONFIG_PATH is those directories for this search only,
# in that order (a module installed in several builds side by side, where the default path names only one).
macro(ulibc_pkg_search prefix module)
  ulibc_forget(__pkg_config_checked_${prefix})
  set(ulibc_saved_pkg_config_path "$ENV{PKG_CONFIG_PATH}")
  if(NOT "${ARGN}" STREQUAL "")
    string(REPLACE ";" ":" ulibc_pkg_path "${ARGN}")
    set(ENV{PKG_CONFIG_PATH} "${ulibc_pkg_path}")
  endif()
  pkg_check_modules(${prefix} QUIET IMPORTED_TARGET ${module})
  set(ENV{PKG_CONFIG_PATH} "${ulibc_saved_pkg_config_path}")
endmacro()

# ulibc_petsc_scalar(OUT INCLUDE_DIR...): PETSc's scalar type as configured in the petscconf.h on those include
# directories — "real double", "complex double", "real single", ... — or "unknown" without one. Real and complex
# builds install side by side and each offers itself as `petsc`; a driver written for one does not compile
# against the other.
function(ulibc_petsc_scalar out)
  set(${out} unknown PARENT_SCOPE)
  foreach(dir ${ARGN})
    if(EXISTS "${dir}/petscconf.h")
      file(STRINGS "${dir}/petscconf.h" defines REGEX "^#define PETSC_USE_(COMPLEX|REAL_[A-Z0-9]+) 1")
      set(kind real)
      if(defines MATCHES "PETSC_USE_COMPLEX 1")
        set(kind complex)
      endif()
      if(defines MATCHES "PETSC_USE_REAL_([A-Z0-9]+) 1")
        string(TOLOWER "${CMAKE_MATCH_1}" precision)
        set(${out} "${kind} ${precision}" PARENT_SCOPE)
      endif()
      return()
    endif()
  endforeach()
endfunction()
