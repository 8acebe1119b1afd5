/* A profiling tool for the Fortran routines, as PSHMEM tools are written: it defines the
 * Fortran names it watches (gfortran's symbols), counts the calls and forwards them to the
 * library's p-names. tool_calls() (Fortran: INTEGER TOOL_CALLS) gives the count. */
void pshmem_integer_put_(void *target, const void *source, const int *nelems, const int *pe);
long pshmem_int8_fadd_(long *target, const long *value, const int *pe);

static int calls;

void shmem_integer_put_(void *target, const void *source, const int *nelems, const int *pe) {
  ++calls;
  pshmem_integer_put_(target, source, nelems, pe);
}

long shmem_int8_fadd_(long *target, const long *value, const int *pe) {
  ++calls;
  return pshmem_int8_fadd_(target, value, pe);
}

int tool_calls_(void) { return calls; }
