! The profiling interface of the Fortran routines: a tool library (profiling_tool.c) linked
! before libshoal defines SHMEM_INTEGER_PUT and SHMEM_INT8_FADD and forwards to their p-twins;
! the calls must reach both the tool (counted) and the library (values arrive).
program f_profiling
  implicit none
  include 'shmem.fh'
  integer :: shmem_my_pe, shmem_n_pes, tool_calls
  integer*8 :: shmem_int8_fadd
  integer :: me, npes, right, left, nfail
  integer :: src(4), dst(4)
  integer*8 :: counter, one, old
  save

  call shmem_init()
  me = shmem_my_pe()
  npes = shmem_n_pes()
  right = mod(me + 1, npes)
  left = mod(me - 1 + npes, npes)
  nfail = 0
  src = me
  dst = -1
  counter = 0
  one = 1
  call shmem_barrier_all()
  call shmem_integer_put(dst, src, 4, right)
  old = shmem_int8_fadd(counter, one, 0)
  call shmem_barrier_all()
  if (any(dst /= left)) nfail = nfail + 1
  if (me == 0 .and. counter /= npes) nfail = nfail + 1
  if (old < 0 .or. old >= npes) nfail = nfail + 1
  if (tool_calls() /= 2) nfail = nfail + 1
  call shmem_finalize()
  if (nfail > 0) then
    print '(a,i0,a,i0,a,i0)', 'f_profiling: PE ', me, ': ', nfail, ' failures; tool calls ', &
      tool_calls()
    stop 1
  end if
  if (me == 0) print '(a,i0,a)', 'f_profiling: passed on ', npes, ' PEs'
end program f_profiling
