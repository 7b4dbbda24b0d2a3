// OpenMP loops that work on storage on a thread's stack (wgtrace-rewrite
// --openmp; openmp_test.py): each mode prints what it computed, so that the
// plain and the instrumented builds can be compared, and the trace of each
// checked with `wgtrace-view races`. Apart from loops.cc: their parallel
// regions run code outside their loops (a call), which the rewriter reports
// as untraced, and loops.cc is built with --strict.
//
//   thread_stack   arrays of each thread's own handed to an orphaned loop
//   shared_stack   a local of the thread that starts the region, handed to
//                  an orphaned loop with a loop-carried dependence (a race)
#include <cstdio>
#include <cstring>
#include <vector>

// Modes `thread_stack` and `shared_stack`: a function whose `omp for` is
// orphaned works on an array it is handed. NPB FT hands it arrays of each
// thread's own, locals of a function the region calls (`thread_stack`: no
// race, on any number of threads); `shared_stack` hands it a local of the
// function that starts the region, on the stack of the thread that starts
// it and shared by the team: its loop-carried dependence races, even when
// that thread runs every iteration.
static void prefix_rows(const double *in, double *out, double *scratch,
                        int rows, int cols) {
#pragma omp for schedule(static)
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c)
      scratch[c] = in[r * cols + c];
    for (int c = 1; c < cols; ++c)
      scratch[c] += scratch[c - 1];
    for (int c = 0; c < cols; ++c)
      out[r * cols + c] = scratch[c];
  }
}

static void rows_of_thread(const double *in, double *out, int rows, int cols) {
  double scratch[64];
  prefix_rows(in, out, scratch, rows, cols);
}

static void thread_stack(int rows, int cols) {
  std::vector<double> in(size_t(rows) * cols), out(in.size());
  for (size_t k = 0; k < in.size(); ++k)
    in[k] = double(k % 9);
  const double *pin = in.data();
  double *pout = out.data();
#pragma omp parallel
  {
    rows_of_thread(pin, pout, rows, cols);
  }
  double sum = 0;
  for (double v : out)
    sum += v;
  std::printf("thread_stack %.1f\n", sum);
}

static void carry(double *line, int n) {
#pragma omp for schedule(static)
  for (int i = 1; i < n; ++i)
    line[i] = line[i - 1] + 1.0;
}

static void shared_stack(int n) {
  double line[64] = {};
  double *shared_line = line;
#pragma omp parallel
  {
    carry(shared_line, n);
  }
  std::printf("shared_stack %.1f\n", line[1]);
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "thread_stack";
  if (!std::strcmp(Mode, "thread_stack"))
    thread_stack(40, 64);
  else if (!std::strcmp(Mode, "shared_stack"))
    shared_stack(64);
  else
    return 2;
  return 0;
}
