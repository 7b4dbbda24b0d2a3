// Only a directive, as Quicksilver's mc_omp_parallel_for_schedule_static.hh:
// the file that includes it holds the loop.
#pragma omp parallel for schedule(static)
