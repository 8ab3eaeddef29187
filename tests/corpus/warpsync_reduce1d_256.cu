/* The legacy warp-synchronous reduction, reduce1dKernel<256> (issue 42 item 0).
 * @source github (code index id 12134571583, repository not named) reduce1dKernel
 * @kernel reduce1dKernel<256>
 * @grid 4
 * @block 256
 * @shared 1024
 * @arg in i32 4096 rand -1000 1000
 * @arg out i32 4
 * @arg val u32 4096
 * @expect report: racecheck names the warp-synchronous hazard (the GPU's answer comes from lockstep)
 */
#include "src/warpsync_reduce1d.cuh"
