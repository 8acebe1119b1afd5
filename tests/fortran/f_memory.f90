! Fortran symmetric memory and queries (compiled with -fcray-pointer): SHPALLOC, SHPCLMOVE and
! SHPDEALLC with their error codes, arrays reached through Cray pointers, SHMEM_PTR, the cache
! routines (no-ops), SHMEM_PE_ACCESSIBLE, SHMEM_ADDR_ACCESSIBLE, MY_PE, NUM_PES,
! SHMEM_INFO_GET_VERSION and SHMEM_INFO_GET_NAME. Exits non-zero on any PE with a wrong value.
program f_memory
  implicit none
  include 'shmem.fh'
  integer :: shmem_my_pe, shmem_n_pes, my_pe, num_pes
  integer :: me, npes, right, left, nfail, k, err, major, minor
  integer :: arr(64), big(4), grown(1), local_only(4)
  pointer (parr, arr)
  pointer (pbig, big)
  pointer (pgrown, grown)
  integer :: remote(4)
  pointer (premote, remote)
  integer*8 :: pold, pinner
  integer :: stat_var(4)
  character(len=SHMEM_MAX_NAME_LEN) :: name
  character(len=4) :: short
  character(len=8) :: shm_setting
  character(len=64) :: my_host, right_host
  logical :: mapped
  integer :: hostnm
  save stat_var, my_host

  call shmem_init()
  me = shmem_my_pe()
  npes = shmem_n_pes()
  right = mod(me + 1, npes)
  left = mod(me - 1 + npes, npes)
  nfail = 0
  if (my_pe() /= me .or. num_pes() /= npes) call fail('my_pe/num_pes', my_pe())

  ! ---- SHPALLOC: 16 words, written by the left neighbour -----------------------------------
  call shpalloc(parr, 16, err, 0)
  if (err /= 0) call fail('shpalloc', err)
  do k = 1, 16
    arr(k) = -1
  end do
  call shmem_barrier_all()
  do k = 1, 16
    local_only(1) = me * 100 + k
    call shmem_integer_put(arr(k), local_only, 1, right)
  end do
  call shmem_barrier_all()
  do k = 1, 16
    if (arr(k) /= left * 100 + k) call fail('shpalloc array', k)
  end do

  ! ---- SHPCLMOVE: grow; in place or moved, the contents stay --------------------------------
  pold = parr
  call shpalloc(pbig, 4, err, 0)          ! a block behind it, so growing may move it
  call shpclmove(parr, 64, err, 0)
  if (err /= 0 .and. err /= 1) call fail('shpclmove status', err)
  if (err == 0 .and. parr /= pold) call fail('shpclmove in place but moved', err)
  if (err == 1 .and. parr == pold) call fail('shpclmove moved but same address', err)
  do k = 1, 16
    if (arr(k) /= left * 100 + k) call fail('shpclmove contents', k)
  end do
  arr(64) = me
  call shmem_barrier_all()
  local_only(1) = -5
  call shmem_integer_get(local_only, arr(64), 1, right)
  if (local_only(1) /= right) call fail('shpclmove block is symmetric', local_only(1))
  call shmem_barrier_all()

  ! ---- error codes ---------------------------------------------------------------------------
  call shpalloc(pgrown, 0, err, 0)
  if (err /= -1) call fail('shpalloc length 0 gives -1', err)
  call shpalloc(pgrown, -3, err, 0)
  if (err /= -1) call fail('shpalloc negative length gives -1', err)
  call shpalloc(pgrown, 2000000000, err, 0)
  if (err /= -2) call fail('shpalloc too large gives -2', err)
  pgrown = loc(local_only)
  call shpdeallc(pgrown, err, 0)
  if (err /= -3) call fail('shpdeallc outside the heap gives -3', err)
  pinner = parr + 8
  call shpdeallc(pinner, err, 0)
  if (err /= -5) call fail('shpdeallc inside a block gives -5', err)
  call shpclmove(pinner, 8, err, 0)
  if (err /= -5) call fail('shpclmove inside a block gives -5', err)
  call shpclmove(parr, 0, err, 0)
  if (err /= -1) call fail('shpclmove length 0 gives -1', err)
  pgrown = pbig
  call shpdeallc(pbig, err, 0)
  if (err /= 0) call fail('shpdeallc', err)
  call shpdeallc(pgrown, err, 0)
  if (err /= -4) call fail('shpdeallc twice gives -4', err)
  call shpdeallc(parr, err, 0)
  if (err /= 0) call fail('shpdeallc of the moved block', err)

  ! ---- SHMEM_PTR: a Cray pointer onto the right neighbour's SAVE array where it shares this
  ! PE's host, 0 where it runs on another host (tests/multihost runs this program across hosts,
  ! each host with a name of its own). SMA_SHARED_MEMORY=0 sends on-node traffic through UCX:
  ! no PE is mapped, SHMEM_PTR gives 0 for every PE but this one.
  stat_var = me
  my_host = ' '
  if (hostnm(my_host) /= 0) call fail('hostnm', 0)
  call shmem_barrier_all()
  call shmem_character_get(right_host, my_host, len(my_host), right)
  call get_environment_variable('SMA_SHARED_MEMORY', shm_setting)
  mapped = right == me .or. (shm_setting /= '0' .and. right_host == my_host)
  premote = shmem_ptr(stat_var, right)
  if (premote == 0) then
    if (mapped) call fail('shmem_ptr gave 0 for a PE of this host', right)
  else if (.not. mapped) then
    call fail('shmem_ptr gave an address on another host', right)
  else
    if (remote(1) /= right .or. remote(4) /= right) call fail('shmem_ptr load', remote(1))
  end if
  call shmem_barrier_all()

  ! ---- accessibility, cache routines, identity ----------------------------------------------
  if (.not. shmem_pe_accessible(right)) call fail('shmem_pe_accessible', right)
  if (shmem_pe_accessible(npes)) call fail('shmem_pe_accessible past the end', npes)
  if (.not. shmem_addr_accessible(stat_var, right)) call fail('shmem_addr_accessible', right)
  call check_stack_array()
  call shmem_set_cache_inv()
  call shmem_set_cache_line_inv(stat_var)
  call shmem_clear_cache_inv()
  call shmem_clear_cache_line_inv(stat_var)
  call shmem_udcflush()
  call shmem_udcflush_line(stat_var)
  call shmem_info_get_version(major, minor)
  if (major /= SHMEM_MAJOR_VERSION .or. minor /= SHMEM_MINOR_VERSION) &
    call fail('shmem_info_get_version', major * 100 + minor)
  call shmem_info_get_name(name)
  if (name /= SHMEM_VENDOR_STRING) call fail('shmem_info_get_name', len_trim(name))
  call shmem_info_get_name(short)
  if (short /= SHMEM_VENDOR_STRING(1:4)) call fail('shmem_info_get_name, short', 4)

  call shmem_barrier_all()
  call shmem_finalize()
  if (nfail > 0) then
    print '(a,i0,a,i0,a)', 'f_memory: PE ', me, ': ', nfail, ' failures'
    stop 1
  end if
  if (me == 0) print '(a,i0,a)', 'f_memory: passed on ', npes, ' PEs'

contains

  ! An array on the stack is not symmetric: not accessible on another PE.
  subroutine check_stack_array()
    integer :: on_stack(4)
    on_stack = me
    if (shmem_addr_accessible(on_stack, right)) call fail('addr_accessible of a stack array', 0)
  end subroutine check_stack_array

  subroutine fail(what, k)
    character(len=*), intent(in) :: what
    integer, intent(in) :: k
    nfail = nfail + 1
    if (nfail <= 10) print '(a,i0,3a,i0)', 'f_memory: PE ', me, ': ', what, ' wrong: ', k
  end subroutine fail

end program f_memory
