/* The optimising tier's compiler processes (src/emu/opt_proc.h): no more at once than
 * LATTICE_EMU_CC_JOBS, none holding the program's descriptors, and none left running (nor
 * any lattice-opt-* directory left) when the program exits, however many modules it made.
 * The compilers here are shell scripts that record what they saw. */
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char tool_dir[64], tmp_dir[64];

static void restore_env(void)
{
    unsetenv("TMPDIR");
    unsetenv("LATTICE_EMU_CC");
    unsetenv("LATTICE_EMU_CC_JOBS");
    unsetenv("LATTICE_CACHE");
}

static void fresh_dirs(void)
{
    snprintf(tool_dir, sizeof tool_dir, "%s", t_tempdir());
    snprintf(tmp_dir, sizeof tmp_dir, "%s", t_tempdir());
    setenv("TMPDIR", tmp_dir, 1);
    setenv("LATTICE_CACHE", "off", 1); /* every module its own build */
    t_defer(restore_env);
}

/* An executable shell script in tool_dir, as the compiler. */
static const char *script(const char *name, const char *body)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tool_dir, name);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    ASSERT_EQ(chmod(path, 0700), 0);
    return path;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int count_lines(const char *path, const char *word)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strncmp(line, word, strlen(word)) == 0;
    fclose(f);
    return n;
}

static int count_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static lat_context *emu_context(void)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("the optimising tier is the emulator's");
    return ctx;
}

/* A module of its own source (i), its build started in the background. */
static lat_module *make(lat_context *ctx, int i)
{
    char src[160];
    snprintf(src, sizeof src, "__global__ void k%d(int *out) { *out = %d; }\n", i, i);
    lat_module *m = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src,
                                                        .emu_opt = LAT_EMU_OPT_BACKGROUND},
                                &m));
    return m;
}

TEST(compilers_at_once_are_bounded_and_hold_none_of_the_programs_descriptors)
{
    fresh_dirs();
    /* A descriptor of the program's, opened without O_CLOEXEC at a number of its own. */
    int fd = open("/dev/null", O_RDONLY);
    ASSERT_TRUE(fd >= 0);
    ASSERT_EQ(dup2(fd, 201), 201);
    close(fd);
    char body[512];
    snprintf(body, sizeof body,
             "echo start >> %s/log\n"
             "[ -e /proc/$$/fd/201 ] && echo leaked >> %s/log\n"
             "sleep 0.2\n"
             "echo end >> %s/log\n"
             "exit 1",
             tool_dir, tool_dir, tool_dir);
    setenv("LATTICE_EMU_CC", script("cc", body), 1);
    int jobs = 1 + (int)(t_rand_u32() % 3);
    char v[8];
    snprintf(v, sizeof v, "%d", jobs);
    setenv("LATTICE_EMU_CC_JOBS", v, 1);
    lat_context *ctx = emu_context();
    enum { N = 7 };
    lat_module *m[N];
    for (int i = 0; i < N; i++)
        m[i] = make(ctx, i);
    char log[128];
    snprintf(log, sizeof log, "%s/log", tool_dir);
    for (double t0 = now_s(); count_lines(log, "end") < N && now_s() - t0 < 120;)
        usleep(10000);
    close(201);
    ASSERT_EQ(count_lines(log, "end"), N);
    ASSERT_EQ(count_lines(log, "leaked"), 0);
    /* The most compilers running at once, from the order of their starts and ends. */
    FILE *f = fopen(log, "r");
    ASSERT_NOT_NULL(f);
    char line[64];
    int now = 0, most = 0;
    while (fgets(line, sizeof line, f)) {
        now += strncmp(line, "start", 5) == 0 ? 1 : strncmp(line, "end", 3) == 0 ? -1 : 0;
        most = now > most ? now : most;
    }
    fclose(f);
    ASSERT_MSG(most <= jobs, "%d compilers ran at once with LATTICE_EMU_CC_JOBS=%d", most, jobs);
    for (int i = 0; i < N; i++)
        lat_module_destroy(m[i]);
    ASSERT_EQ(count_entries(tmp_dir), 0);
}

/* The child of the next case: makes more modules than any fixed table held, waits for
 * compilers to run, and exits with them running. */
TEST(exit_child)
{
    if (!getenv("LAT_TEST_EXIT_CHILD"))
        return; /* only as exit_stops_every_compiler_and_removes_every_directory's child */
    lat_context *ctx = emu_context();
    enum { N = 300 };
    for (int i = 0; i < N; i++)
        make(ctx, i);
    char pids[128];
    snprintf(pids, sizeof pids, "%s/pids", getenv("LAT_TEST_TOOL_DIR"));
    for (double t0 = now_s(); count_lines(pids, "") < 4 && now_s() - t0 < 60;)
        usleep(10000);
    exit(count_lines(pids, "") >= 4 ? 0 : 3);
}

/* Whether pid is gone (or a zombie no one reaped: it runs nothing). */
static bool gone(int pid)
{
    if (kill(pid, 0) != 0)
        return errno == ESRCH;
    char path[64], stat[256] = "";
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    bool zombie = fgets(stat, sizeof stat, f) && strstr(stat, ") Z ");
    fclose(f);
    return zombie;
}

TEST(exit_stops_every_compiler_and_removes_every_directory)
{
    fresh_dirs();
    emu_context(); /* skips on another backend */
    char body[256];
    snprintf(body, sizeof body, "echo $$ >> %s/pids\nexec sleep 120", tool_dir);
    setenv("LATTICE_EMU_CC", script("hangcc", body), 1);
    setenv("LATTICE_EMU_CC_JOBS", "8", 1);
    setenv("LAT_TEST_EXIT_CHILD", "1", 1);
    setenv("LAT_TEST_TOOL_DIR", tool_dir, 1);
    /* The child exits with its modules and contexts alive, on purpose: not a leak for
     * the sanitizer to report. */
    const char *asan = getenv("ASAN_OPTIONS");
    char *asan_old = asan ? strdup(asan) : NULL, asan_child[512];
    snprintf(asan_child, sizeof asan_child, "%s%sdetect_leaks=0", asan ? asan : "",
             asan ? ":" : "");
    setenv("ASAN_OPTIONS", asan_child, 1);
    /* This program by its path (readlink: under valgrind, /proc/self/exe itself is
     * valgrind's). */
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    ASSERT_TRUE(len > 0);
    self[len] = '\0';
    char *argv[] = {self, "exit_child", NULL};
    pid_t child;
    int err = posix_spawn(&child, self, NULL, NULL, argv, environ);
    unsetenv("LAT_TEST_EXIT_CHILD");
    unsetenv("LAT_TEST_TOOL_DIR");
    if (asan_old)
        setenv("ASAN_OPTIONS", asan_old, 1);
    else
        unsetenv("ASAN_OPTIONS");
    free(asan_old);
    ASSERT_EQ(err, 0);
    int status = 0;
    double t0 = now_s();
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (now_s() - t0 > 180) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            FAIL("the program did not exit: its exit waited for its compilers");
        }
        usleep(10000);
    }
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child ended with status %#x",
               status);
    char pids[128];
    snprintf(pids, sizeof pids, "%s/pids", tool_dir);
    FILE *f = fopen(pids, "r");
    ASSERT_NOT_NULL(f);
    int pid, n = 0, alive = 0;
    while (fscanf(f, "%d", &pid) == 1) {
        n++;
        alive += !gone(pid);
        if (!gone(pid))
            kill(pid, SIGKILL);
    }
    fclose(f);
    ASSERT_MSG(alive == 0, "%d of %d compilers outlived the program", alive, n);
    ASSERT_MSG(count_entries(tmp_dir) == 0, "%d lattice-opt-* directories left in TMPDIR",
               count_entries(tmp_dir));
    ASSERT_GE(n, 4);
    ASSERT_LE(n, 8); /* no more than the bound: none starts once exit began */
}

/* A module's name goes into the C lattice generates (#line markers, the barriers' reports):
 * a newline, a quote or a backslash in it must stay in the name, not become code. */
static void reverse_in(lat_context *ctx, const char *name, lat_emu_opt tier)
{
    static const char src[] =
        "__global__ void rev(int *a)\n"
        "{\n"
        "    __shared__ int s[64];\n"
        "    int t = threadIdx.x;\n"
        "    s[t] = a[t];\n"
        "    __syncthreads();\n"
        "    a[t] = s[63 - t] * 3;\n"
        "}\n";
    lat_module *m = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = name,
                                                        .emu_opt = tier},
                                &m));
    int a[64], want[64];
    for (int i = 0; i < 64; i++)
        a[i] = (int)(t_rand_u32() % 1000);
    for (int i = 0; i < 64; i++)
        want[i] = a[63 - i] * 3;
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "rev", &k));
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_inout(a, sizeof a))));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(a[i], want[i]);
    lat_module_destroy(m);
}

TEST(a_module_name_with_a_newline_or_quotes_is_escaped_in_the_generated_C)
{
    static const char *const names[] = {
        "evil\nint injected = ;\n.cu",
        "quote\"and\\backslash\r\t.cu",
        "\n#error from the name\n",
    };
    restore_env();
    lat_context *ctx = emu_context();
    lat_context *checked = t_context_with(&(lat_context_desc){.check = LAT_CHECK_ALL});
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        reverse_in(ctx, names[i], LAT_EMU_OPT_OFF);
        reverse_in(checked, names[i], LAT_EMU_OPT_OFF);
        /* The optimising tier's compiler reads the same text (where there is one: without,
         * the module stays on TinyCC, as it says in its log). */
        reverse_in(ctx, names[i], LAT_EMU_OPT_SYNC);
    }
}
