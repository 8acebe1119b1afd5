! Bad input to the Fortran routines ends the job with a message naming the Fortran routine.
! One case per run, named by the first argument (tests/fortran/CMakeLists.txt):
!   bad_pe          SHMEM_INTEGER_PUT to PE n_pes (out of range)
!   nonsym          SHMEM_INTEGER_GET from an array on the stack (not symmetric)
!   amo_bad_pe      SHMEM_INT8_FADD on PE -1
!   shpalloc_abort  SHPALLOC of 0 words with abort set
!   neg_count       SHMEM_REAL_GET of -1 elements
!   bad_set         SHMEM_INT4_SUM_TO_ALL on an active set past the last PE: logged, returns
!   big_nreduce     SHMEM_COMP4_XOR_TO_ALL of 2e9 items (4e9 words): logged, returns
! The last PE makes the bad call; "UNREACHABLE" is printed if a fatal one returns.
program f_errors
  implicit none
  include 'shmem.fh'
  integer :: shmem_my_pe, shmem_n_pes
  integer*8 :: shmem_int8_fadd
  integer :: me, npes, err
  character(len=32) :: which
  integer :: sym(4), pwrk(SHMEM_REDUCE_MIN_WRKDATA_SIZE)
  integer :: psync(SHMEM_REDUCE_SYNC_SIZE)
  real :: rsym(4)
  integer*8 :: sym8, one8, r8
  integer :: arr(1)
  pointer (parr, arr)
  save sym, sym8, rsym, pwrk, psync

  call get_command_argument(1, which)
  call shmem_init()
  me = shmem_my_pe()
  npes = shmem_n_pes()
  sym = 0
  sym8 = 0
  one8 = 1
  call shmem_barrier_all()
  if (me == npes - 1) then
    select case (trim(which))
    case ('bad_pe')
      call shmem_integer_put(sym, sym, 4, npes)
    case ('nonsym')
      call get_from_stack()
    case ('amo_bad_pe')
      r8 = shmem_int8_fadd(sym8, one8, -1)
    case ('shpalloc_abort')
      call shpalloc(parr, 0, err, 1)
    case ('neg_count')
      call shmem_real_get(rsym, rsym, -1, 0)
    case ('bad_set')
      call shmem_int4_sum_to_all(sym, sym, 4, 0, 0, npes + 1, pwrk, psync)
      print *, 'returned as documented'
    case ('big_nreduce')
      call shmem_comp4_xor_to_all(sym, sym, 2000000000, 0, 0, npes, pwrk, psync)
      print *, 'returned as documented'
    case default
      print *, 'unknown case ', trim(which)
      stop 2
    end select
    if (trim(which) /= 'bad_set' .and. trim(which) /= 'big_nreduce') &
      print *, 'UNREACHABLE: ', trim(which), ' returned'
  end if
  call shmem_barrier_all()
  call shmem_finalize()

contains

  subroutine get_from_stack()
    integer :: on_stack(4)
    on_stack = 1
    call shmem_integer_get(sym, on_stack, 4, 0)
  end subroutine get_from_stack

end program f_errors
