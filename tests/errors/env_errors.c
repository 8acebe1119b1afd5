/* A malformed environment variable must stop the job in shmem_init with a message naming the
 * variable and the value. CTest sets the variable (see CMakeLists.txt); argv[1] only names the
 * case in the output. */
#include <shmem.h>

#include <stdio.h>

int main(int argc, char **argv) {
  shmem_init();
  printf("UNREACHABLE: PE %d: shmem_init accepted the environment of case %s\n", shmem_my_pe(),
         argc > 1 ? argv[1] : "?");
  fflush(stdout);
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
