C     The example of the OpenSHMEM 1.0 manual page of SHMEM_AND_TO_ALL
C     (SHMEM_INT8_AND_TO_ALL over the even PEs: PE_start 0,
C     logPE_stride 1), with the page's N$PES written NUM_PES().
C     Build and run:  oshfort and_to_all.f -o and_to_all
C                     oshrun -np 4 ./and_to_all
      PROGRAM ANDTOALL
      INCLUDE 'mpp/shmem.fh'
      INTEGER PSYNC(SHMEM_REDUCE_SYNC_SIZE)
      DATA PSYNC /SHMEM_REDUCE_SYNC_SIZE*SHMEM_SYNC_VALUE/
      INTEGER NR
      PARAMETER (NR=1)
      INTEGER*8 PWRK(MAX(NR/2+1,SHMEM_REDUCE_MIN_WRKDATA_SIZE))
      INTEGER*8 FOO, FOOAND
      SAVE FOO, FOOAND, PWRK, PSYNC
      INTEGER MY_PE, NUM_PES
      CALL START_PES(0)
      FOO = NOT(ISHFT(1_8, MY_PE()))
      CALL SHMEM_BARRIER_ALL()
      IF (MOD(MY_PE(), 2) .EQ. 0) THEN
        CALL SHMEM_INT8_AND_TO_ALL(FOOAND, FOO, NR, 0, 1,
     &                             (NUM_PES() + 1) / 2, PWRK, PSYNC)
        WRITE (*, '(A,I0,A,Z16.16)') 'Result on PE ', MY_PE(), ' is ',
     &    FOOAND
      ELSE
        WRITE (*, '(A,I0,A)') 'PE ', MY_PE(), ' is not in the set'
      END IF
      END
