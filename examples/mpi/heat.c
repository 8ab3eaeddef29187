/*
 * mpi_heat: 2-D heat diffusion (Jacobi iteration) over MPI ranks, one lattice device each.
 *
 * The grid is split into bands of rows, one per rank (uneven when the rows do not divide).
 * Each rank keeps its band and two halo rows on its device and, every step, trades its
 * edge rows with its neighbours:
 *   - staged (the default): the edge rows go to page-locked host buffers on a copy stream
 *     while the band's interior is computed on another; the halos come back the same way,
 *     and only the two edge rows wait for them;
 *   - CUDA-aware: device pointers straight to MPI, where the MPI library says it takes
 *     them (MPIX_Query_cuda_support) and the context is on a GPU;
 *   - --blocking: synchronous copies, then the whole band (for comparison).
 * Every --every steps the global residual (the largest change of a point in the step) is
 * MPI_Allreduce'd from a lattice reduction of each band. Max is exact, so every rank count
 * gives the same residuals, and the same grid, bit for bit: --check gathers the grid on
 * rank 0 and compares it with a single-rank run there.
 *
 *     mpirun -np 3 ./mpi_heat --nx 512 --ny 384 --steps 200 --check
 *     mpirun -np 2 ./mpi_heat --bench          # overlapped against blocking, same run
 *
 * The device is lat_device_for_local_rank()'s: the local rank modulo the device count (on
 * the emulator, LATTICE_EMU_DEVICES gives several).
 */
#include <lattice.h>

#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_Query_cuda_support, where Open MPI has it */
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const source =
    "__global__ void jacobi(const float *u, float *v, float *change, int nx, int first, int last)\n"
    "{\n"
    "    int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    int i = first + blockIdx.y;\n"
    "    if (i > last || j >= nx)\n"
    "        return;\n"
    "    int c = i * nx + j;\n"
    "    float next = u[c]; /* the left and right columns are held fixed */\n"
    "    if (j > 0 && j < nx - 1)\n"
    "        next = u[c] + 0.2f * (u[c - nx] + u[c + nx] + u[c - 1] + u[c + 1] - 4.0f * u[c]);\n"
    "    v[c] = next;\n"
    "    change[c] = fabsf(next - u[c]);\n"
    "}\n";

typedef struct options {
    int nx, ny, steps, every;
    int check, blocking, bench, quiet;
} options;

/* One rank's part: its band of rows [row0, row0 + rows) of the interior rows 1..ny-2, on
 * its device, with a halo row above (local row 0) and below (local row rows + 1). */
typedef struct band {
    MPI_Comm comm;
    int rank, size, up, down; /* neighbours, MPI_PROC_NULL at the grid's edges */
    int nx, row0, rows;
    lat_context *ctx;
    lat_module *module;
    lat_kernel *jacobi;
    lat_stream *compute, *copy;
    lat_event *sent, *arrived;
    lat_deviceptr u, v, change;
    float *send_up, *send_down, *recv_up, *recv_down; /* page-locked */
    int cuda_aware;
    double exchange_s; /* time spent in the halo exchange (host clock) */
} band;

static void usage(void)
{
    fprintf(stderr, "usage: mpi_heat [--nx N] [--ny N] [--steps N] [--every N] [--check] [--blocking]\n"
                    "                [--bench] [--quiet]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static options parse(int argc, char **argv)
{
    options o = {.nx = 256, .ny = 192, .steps = 100, .every = 10};
    for (int i = 1; i < argc; i++) {
        int *target = !strcmp(argv[i], "--nx")      ? &o.nx
                      : !strcmp(argv[i], "--ny")    ? &o.ny
                      : !strcmp(argv[i], "--steps") ? &o.steps
                      : !strcmp(argv[i], "--every") ? &o.every
                                                    : NULL;
        if (target && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 1 << 20)
                usage();
            *target = (int)v;
        } else if (!strcmp(argv[i], "--check")) {
            o.check = 1;
        } else if (!strcmp(argv[i], "--blocking")) {
            o.blocking = 1;
        } else if (!strcmp(argv[i], "--bench")) {
            o.bench = 1;
        } else if (!strcmp(argv[i], "--quiet")) {
            o.quiet = 1;
        } else {
            usage();
        }
    }
    if (o.nx < 3 || o.ny < 3)
        usage();
    return o;
}

/* The starting temperature of global row i, column j: a hot top edge, a warm spot, and a
 * pattern that is not symmetric, so that a misplaced row shows. */
static float initial(int i, int j, int nx, int ny)
{
    if (i == 0)
        return 100.0f;
    float x = (float)j / (float)(nx - 1), y = (float)i / (float)(ny - 1);
    float spot = (x - 0.3f) * (x - 0.3f) + (y - 0.6f) * (y - 0.6f) < 0.01f ? 50.0f : 0.0f;
    return spot + (float)((i * 7 + j * 3) % 11);
}

static int cuda_aware_mpi(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support();
#else
    return 0;
#endif
}

/* Sets up a band of an ny x nx grid over comm on the given context. */
static void band_init(band *b, MPI_Comm comm, lat_context *ctx, int nx, int ny)
{
    memset(b, 0, sizeof *b);
    b->comm = comm;
    MPI_Comm_rank(comm, &b->rank);
    MPI_Comm_size(comm, &b->size);
    int interior = ny - 2;
    if (b->size > interior) {
        fprintf(stderr, "mpi_heat: %d ranks for %d interior rows: at most one rank per row\n", b->size,
                interior);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* The first (interior % size) ranks take one row more. */
    int base = interior / b->size, extra = interior % b->size;
    b->rows = base + (b->rank < extra);
    b->row0 = 1 + b->rank * base + (b->rank < extra ? b->rank : extra);
    b->up = b->rank > 0 ? b->rank - 1 : MPI_PROC_NULL;
    b->down = b->rank < b->size - 1 ? b->rank + 1 : MPI_PROC_NULL;
    b->nx = nx;
    b->ctx = ctx;

    LAT_TRY(lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "heat.cu"}, &b->module));
    LAT_TRY(lat_module_get_kernel(b->module, "jacobi", &b->jacobi));
    LAT_TRY(lat_stream_create(ctx, &(lat_stream_desc){.non_blocking = 1}, &b->compute));
    LAT_TRY(lat_stream_create(ctx, &(lat_stream_desc){.non_blocking = 1}, &b->copy));
    LAT_TRY(lat_event_create(ctx, &(lat_event_desc){.disable_timing = 1}, &b->sent));
    LAT_TRY(lat_event_create(ctx, &(lat_event_desc){.disable_timing = 1}, &b->arrived));

    size_t cells = (size_t)(b->rows + 2) * (size_t)nx, row = (size_t)nx * sizeof(float);
    LAT_TRY(lat_mem_alloc(ctx, cells * sizeof(float), &b->u));
    LAT_TRY(lat_mem_alloc(ctx, cells * sizeof(float), &b->v));
    LAT_TRY(lat_mem_alloc(ctx, cells * sizeof(float), &b->change));
    LAT_TRY(lat_memset_d32(ctx, b->change, 0, cells));
    void *p[4];
    for (int k = 0; k < 4; k++)
        LAT_TRY(lat_host_alloc(ctx, row, 0, &p[k]));
    b->send_up = p[0], b->send_down = p[1], b->recv_up = p[2], b->recv_down = p[3];

    /* Both buffers start as the band and its halo rows: the grid's own top and bottom
     * rows never change, so a band at an edge keeps them as its halo. */
    float *host = malloc(cells * sizeof(float));
    if (!host) {
        fprintf(stderr, "mpi_heat: out of host memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < b->rows + 2; i++)
        for (int j = 0; j < nx; j++)
            host[(size_t)i * nx + j] = initial(b->row0 - 1 + i, j, nx, ny);
    LAT_TRY(lat_memcpy_htod(ctx, b->u, host, cells * sizeof(float)));
    LAT_TRY(lat_memcpy_htod(ctx, b->v, host, cells * sizeof(float)));
    free(host);

    lat_backend_kind kind = lat_context_backend(ctx);
    b->cuda_aware = kind == LAT_BACKEND_CUDA && cuda_aware_mpi();
}

static void band_free(band *b)
{
    lat_host_free(b->ctx, b->send_up);
    lat_host_free(b->ctx, b->send_down);
    lat_host_free(b->ctx, b->recv_up);
    lat_host_free(b->ctx, b->recv_down);
    lat_mem_free(b->ctx, b->u);
    lat_mem_free(b->ctx, b->v);
    lat_mem_free(b->ctx, b->change);
    lat_event_destroy(b->sent);
    lat_event_destroy(b->arrived);
    lat_stream_destroy(b->compute);
    lat_stream_destroy(b->copy);
    lat_module_destroy(b->module);
}

/* Launches the update of local rows first..last (1-based, inclusive) on a stream. */
static void update_rows(band *b, int first, int last, lat_stream *stream)
{
    if (first > last)
        return;
    lat_launch_desc d = {.grid = {(unsigned)(b->nx + 127) / 128, (unsigned)(last - first + 1)},
                         .block = {128},
                         .stream = stream};
    LAT_TRY(lat_launch_args(b->jacobi, &d,
                            LAT_ARGS(lat_arg_ptr(b->u), lat_arg_ptr(b->v), lat_arg_ptr(b->change),
                                     lat_arg_i32(b->nx), lat_arg_i32(first), lat_arg_i32(last))));
}

/* The band's two edge rows, which read the halos (one row when the band has one). */
static void update_edge_rows(band *b, lat_stream *stream)
{
    update_rows(b, 1, 1, stream);
    if (b->rows > 1)
        update_rows(b, b->rows, b->rows, stream);
}

static lat_deviceptr row_at(const band *b, lat_deviceptr buf, int local_row)
{
    return buf + (lat_deviceptr)local_row * (lat_deviceptr)b->nx * sizeof(float);
}

/* Trades edge rows with the neighbours: row 1 goes up and row `rows` down; the
 * neighbours' edge rows arrive in rows 0 and rows + 1. */
static void trade(band *b, void *send_up, void *send_down, void *recv_up, void *recv_down)
{
    double t0 = MPI_Wtime();
    MPI_Sendrecv(send_up, b->nx, MPI_FLOAT, b->up, 0, recv_down, b->nx, MPI_FLOAT, b->down, 0, b->comm,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(send_down, b->nx, MPI_FLOAT, b->down, 1, recv_up, b->nx, MPI_FLOAT, b->up, 1, b->comm,
                 MPI_STATUS_IGNORE);
    b->exchange_s += MPI_Wtime() - t0;
}

/* One step: v from u, then the two are swapped. */
static void step(band *b, int blocking)
{
    size_t row = (size_t)b->nx * sizeof(float);
    if (b->cuda_aware) {
        /* Device pointers to MPI: the interior runs while the rows move. */
        update_rows(b, 2, b->rows - 1, b->compute);
        trade(b, (void *)(uintptr_t)row_at(b, b->u, 1), (void *)(uintptr_t)row_at(b, b->u, b->rows),
              b->up == MPI_PROC_NULL ? NULL : (void *)(uintptr_t)row_at(b, b->u, 0),
              b->down == MPI_PROC_NULL ? NULL : (void *)(uintptr_t)row_at(b, b->u, b->rows + 1));
        update_edge_rows(b, b->compute);
    } else if (blocking) {
        LAT_TRY(lat_memcpy_dtoh(b->ctx, b->send_up, row_at(b, b->u, 1), row));
        LAT_TRY(lat_memcpy_dtoh(b->ctx, b->send_down, row_at(b, b->u, b->rows), row));
        trade(b, b->send_up, b->send_down, b->recv_up, b->recv_down);
        if (b->up != MPI_PROC_NULL)
            LAT_TRY(lat_memcpy_htod(b->ctx, row_at(b, b->u, 0), b->recv_up, row));
        if (b->down != MPI_PROC_NULL)
            LAT_TRY(lat_memcpy_htod(b->ctx, row_at(b, b->u, b->rows + 1), b->recv_down, row));
        update_rows(b, 1, b->rows, b->compute);
    } else {
        /* The edge rows leave on the copy stream while the interior is computed. */
        LAT_TRY(lat_memcpy_dtoh_async(b->ctx, b->send_up, row_at(b, b->u, 1), row, b->copy));
        LAT_TRY(lat_memcpy_dtoh_async(b->ctx, b->send_down, row_at(b, b->u, b->rows), row, b->copy));
        LAT_TRY(lat_event_record(b->sent, b->copy));
        update_rows(b, 2, b->rows - 1, b->compute);
        LAT_TRY(lat_event_synchronize(b->sent));
        trade(b, b->send_up, b->send_down, b->recv_up, b->recv_down);
        if (b->up != MPI_PROC_NULL)
            LAT_TRY(lat_memcpy_htod_async(b->ctx, row_at(b, b->u, 0), b->recv_up, row, b->copy));
        if (b->down != MPI_PROC_NULL)
            LAT_TRY(lat_memcpy_htod_async(b->ctx, row_at(b, b->u, b->rows + 1), b->recv_down, row, b->copy));
        LAT_TRY(lat_event_record(b->arrived, b->copy));
        LAT_TRY(lat_stream_wait_event(b->compute, b->arrived));
        update_edge_rows(b, b->compute);
    }
    /* The next step's copies read what this step wrote. */
    LAT_TRY(lat_stream_synchronize(b->compute));
    lat_deviceptr t = b->u;
    b->u = b->v;
    b->v = t;
}

/* The largest change of a point in the last step, over every rank. */
static double residual(band *b)
{
    lat_array *a, *r;
    size_t shape[1] = {(size_t)b->rows * (size_t)b->nx};
    LAT_TRY(lat_array_wrap(b->ctx, row_at(b, b->change, 1), LAT_DTYPE_FLOAT32, 1, shape, &a));
    LAT_TRY(lat_array_reduce(LAT_REDUCE_MAX, a, NULL, &r));
    lat_scalar s;
    LAT_TRY(lat_array_get_scalar(r, &s));
    lat_array_destroy(r);
    lat_array_destroy(a);
    double local = s.value.f, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, b->comm);
    return global;
}

/* Runs the solver; returns the last residual and, on the comm's rank 0, the whole grid's
 * interior rows in *grid (malloc'd). */
static double solve(band *b, const options *o, float **grid, int print)
{
    double last = 0;
    for (int s = 1; s <= o->steps; s++) {
        step(b, o->blocking);
        if (s % o->every == 0 || s == o->steps) {
            last = residual(b);
            if (print && b->rank == 0 && !o->quiet)
                printf("step %d: residual %.6g\n", s, last);
        }
    }
    /* Gather the bands on rank 0. */
    int *counts = NULL, *offsets = NULL;
    float *mine = malloc((size_t)b->rows * (size_t)b->nx * sizeof(float));
    if (!mine)
        MPI_Abort(MPI_COMM_WORLD, 1);
    LAT_TRY(lat_memcpy_dtoh(b->ctx, mine, row_at(b, b->u, 1), (size_t)b->rows * (size_t)b->nx * sizeof(float)));
    if (b->rank == 0) {
        counts = malloc((size_t)b->size * sizeof(int));
        offsets = malloc((size_t)b->size * sizeof(int));
    }
    int mycount = b->rows * b->nx;
    MPI_Gather(&mycount, 1, MPI_INT, counts, 1, MPI_INT, 0, b->comm);
    *grid = NULL;
    if (b->rank == 0) {
        int total = 0;
        for (int r = 0; r < b->size; r++) {
            offsets[r] = total;
            total += counts[r];
        }
        *grid = malloc((size_t)total * sizeof(float));
        if (!*grid)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gatherv(mine, mycount, MPI_FLOAT, *grid, counts, offsets, MPI_FLOAT, 0, b->comm);
    free(mine);
    free(counts);
    free(offsets);
    return last;
}

/* FNV-1a over the grid's bits: runs with any number of ranks print the same. */
static uint64_t checksum(const float *grid, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned char *p = (const unsigned char *)grid;
    for (size_t i = 0; i < n * sizeof(float); i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Milliseconds per step of `steps` steps in the given mode (after one to warm up). */
static double time_steps(band *b, int steps, int blocking, double *exchange_ms)
{
    step(b, blocking);
    MPI_Barrier(b->comm);
    b->exchange_s = 0;
    double t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++)
        step(b, blocking);
    MPI_Barrier(b->comm);
    double ms = (MPI_Wtime() - t0) * 1e3 / steps;
    double ex = b->exchange_s * 1e3 / steps, worst = 0;
    MPI_Allreduce(&ex, &worst, 1, MPI_DOUBLE, MPI_MAX, b->comm);
    *exchange_ms = worst;
    return ms;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    options o = parse(argc, argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    lat_local_rank local;
    LAT_TRY(lat_local_rank_get(&local));
    int device;
    LAT_TRY(lat_device_for_local_rank(LAT_BACKEND_AUTO, &device));
    lat_context *ctx;
    LAT_TRY(lat_context_create(&(lat_context_desc){.device = device}, &ctx));
    lat_device_info info;
    LAT_TRY(lat_context_device_info(ctx, &info));

    band b;
    band_init(&b, MPI_COMM_WORLD, ctx, o.nx, o.ny);
    int aware = b.cuda_aware, all_aware = 0;
    MPI_Allreduce(&aware, &all_aware, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    b.cuda_aware = all_aware;
    if (rank == 0 && !o.quiet)
        printf("mpi_heat: %d rank%s, grid %d x %d, %d steps, %s (device %d of rank 0: %s), %s halo exchange\n",
               size, size == 1 ? "" : "s", o.nx, o.ny, o.steps, lat_backend_name(lat_context_backend(ctx)),
               device, info.name,
               b.cuda_aware ? "CUDA-aware" : o.blocking ? "blocking staged" : "overlapped staged");

    int status = 0;
    if (o.bench) {
        double ex_o, ex_b;
        double over = time_steps(&b, o.steps, 0, &ex_o);
        double block = time_steps(&b, o.steps, 1, &ex_b);
        if (rank == 0)
            printf("step: %.3f ms overlapped (exchange %.3f ms), %.3f ms blocking (exchange %.3f ms): "
                   "blocking / overlapped %.2fx\n",
                   over, ex_o, block, ex_b, block / over);
    } else {
        float *grid = NULL;
        double last = solve(&b, &o, &grid, 1);
        size_t n = (size_t)(o.ny - 2) * (size_t)o.nx;
        if (rank == 0) {
            printf("final residual %.9g, grid checksum %016" PRIx64 "\n", last, checksum(grid, n));
            /* Something happened: heat moved in from the hot edge. */
            if (!(last > 0) || grid[(size_t)0 * o.nx + o.nx / 2] <= initial(1, o.nx / 2, o.nx, o.ny)) {
                printf("mpi_heat: the grid did not change as heat diffusion would\n");
                status = 1;
            }
        }
        if (o.check && rank == 0) {
            /* The same steps on one rank, on rank 0's device. */
            band one;
            band_init(&one, MPI_COMM_SELF, ctx, o.nx, o.ny);
            float *alone = NULL;
            double last1 = solve(&one, &o, &alone, 0);
            int same = memcmp(grid, alone, n * sizeof(float)) == 0 && last1 == last;
            printf("single-rank run: %s\n", same ? "identical, bit for bit" : "DIFFERENT");
            if (!same) {
                for (size_t i = 0; i < n; i++)
                    if (memcmp(&grid[i], &alone[i], sizeof(float)) != 0) {
                        printf("  first difference at row %zu, column %zu: %.9g vs %.9g alone\n",
                               i / (size_t)o.nx + 1, i % (size_t)o.nx, (double)grid[i], (double)alone[i]);
                        break;
                    }
                status = 1;
            }
            free(alone);
            band_free(&one);
        }
        free(grid);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    band_free(&b);
    lat_context_destroy(ctx);
    MPI_Finalize();
    return status;
}
