/* The compile cache's disk entries as a hostile co-user or a careless one would leave them
 * (docs/security.md): a directory someone else can write or owns, entries that are not
 * the user's, a FIFO, a link or a huge sparse file at an entry's name, an edited entry.
 * None may be loaded, block, or be read whole; each case with its own directory. */
#include "harness.h"

#include "core/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A uid no account has (the cases that need another owner run as root). */
enum { STRANGER = 54321 };

static char dir[700];

static void use_dir(const char *d)
{
    snprintf(dir, sizeof dir, "%s", d);
    t_setenv("LATTICE_CACHE_DIR", dir);
    t_unsetenv("LATTICE_CACHE");
    lat_cache_clear();
}

/* A private cache directory of its own under a fresh temporary one. */
static void fresh_dir(void)
{
    char d[512];
    snprintf(d, sizeof d, "%s/cache", t_tempdir());
    ASSERT_EQ(mkdir(d, 0700), 0);
    use_dir(d);
}

static lat__cache_key random_key(void)
{
    uint8_t b[32];
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)t_rand_u32();
    lat__cache_key k;
    lat__cache_key_set(&k, b);
    return k;
}

static void entry_path(const lat__cache_key *k, char *out, size_t n)
{
    snprintf(out, n, "%s/%s.lcc", dir, k->hex);
}

/* Stores a random payload under k; returns it (malloc'd). */
static uint8_t *put_random(const lat__cache_key *k, size_t n)
{
    uint8_t *p = t_calloc(n, 1);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)t_rand_u32();
    lat__cache_put(k, true, p, n);
    lat_cache_clear(); /* what follows reads the disk */
    return p;
}

/* Whether k is found (on disk: memory was cleared). */
static bool found(const lat__cache_key *k, const uint8_t *want, size_t n)
{
    void *data = NULL;
    size_t size = 0;
    int origin = 0;
    bool hit = lat__cache_get(k, true, &data, &size, &origin);
    if (hit) {
        ASSERT_EQ(origin, LAT_MODULE_DISK_CACHE);
        ASSERT_EQ(size, n);
        ASSERT_TRUE(memcmp(data, want, n) == 0);
    }
    free(data);
    lat_cache_clear();
    return hit;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void need_root(void)
{
    if (geteuid() != 0)
        SKIP("needs root to give a file to another user (chown); runs in CI as root");
}

TEST(a_good_entry_is_found_on_disk)
{
    fresh_dir();
    lat__cache_key k = random_key();
    size_t n = 1000 + t_rand_u32() % 5000;
    uint8_t *p = put_random(&k, n);
    ASSERT_TRUE(found(&k, p, n));
    ASSERT_STR_EQ(lat_cache_directory(), dir);
}

TEST(a_group_writable_directory_is_not_used)
{
    fresh_dir();
    lat__cache_key k = random_key();
    uint8_t *p = put_random(&k, 256);
    ASSERT_TRUE(found(&k, p, 256));
    ASSERT_EQ(chmod(dir, 0770), 0);
    ASSERT_TRUE(!found(&k, p, 256)); /* someone of the group could have planted it */
    char path[900];
    entry_path(&k, path, sizeof path);
    ASSERT_TRUE(exists(path)); /* left as it is: not ours to judge */
    lat__cache_key k2 = random_key();
    put_random(&k2, 64);
    entry_path(&k2, path, sizeof path);
    ASSERT_TRUE(!exists(path)); /* nothing written there either */
    ASSERT_STR_EQ(lat_cache_directory(), "");
    ASSERT_EQ(chmod(dir, 0777 | S_ISVTX), 0); /* /tmp's mode: still anyone's to write */
    ASSERT_TRUE(!found(&k, p, 256));
}

TEST(a_directory_above_that_others_can_write_makes_the_cache_untrusted)
{
    char top[512], d[600];
    snprintf(top, sizeof top, "%s/shared", t_tempdir());
    ASSERT_EQ(mkdir(top, 0700), 0);
    ASSERT_EQ(chmod(top, 0777), 0); /* anyone may rename our directory and put theirs there */
    snprintf(d, sizeof d, "%s/cache", top);
    ASSERT_EQ(mkdir(d, 0700), 0);
    use_dir(d);
    lat__cache_key k = random_key();
    uint8_t *p = put_random(&k, 128);
    ASSERT_TRUE(!found(&k, p, 128));
    ASSERT_STR_EQ(lat_cache_directory(), "");
    /* With the sticky bit (as /tmp has) no one else can move what is ours: trusted. */
    ASSERT_EQ(chmod(top, 0777 | S_ISVTX), 0);
    p = put_random(&k, 128);
    ASSERT_TRUE(found(&k, p, 128));
    ASSERT_STR_EQ(lat_cache_directory(), d);
}

TEST(a_directory_of_another_user_is_not_used)
{
    need_root();
    fresh_dir();
    lat__cache_key k = random_key();
    uint8_t *p = put_random(&k, 300);
    ASSERT_TRUE(found(&k, p, 300));
    ASSERT_EQ(chown(dir, STRANGER, STRANGER), 0);
    ASSERT_TRUE(!found(&k, p, 300));
    ASSERT_STR_EQ(lat_cache_directory(), "");
}

TEST(an_entry_of_another_user_or_writable_by_others_is_not_loaded)
{
    fresh_dir();
    lat__cache_key k = random_key();
    uint8_t *p = put_random(&k, 400);
    char path[900];
    entry_path(&k, path, sizeof path);
    ASSERT_EQ(chmod(path, 0666), 0);
    ASSERT_TRUE(!found(&k, p, 400));
    ASSERT_EQ(chmod(path, 0600), 0);
    ASSERT_TRUE(found(&k, p, 400));
    if (geteuid() != 0) {
        printf("  (skipped the other owner's entry: needs root for chown)\n");
        return;
    }
    ASSERT_EQ(chown(path, STRANGER, STRANGER), 0);
    ASSERT_TRUE(!found(&k, p, 400));
    ASSERT_TRUE(exists(path));
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: reading the cache blocked on a FIFO\n";
    ssize_t r = write(1, msg, sizeof msg - 1);
    (void)r;
    _exit(1);
}

TEST(a_fifo_or_a_link_at_an_entry_name_does_not_block_and_is_removed)
{
    fresh_dir();
    lat__cache_key k = random_key();
    char path[900];
    entry_path(&k, path, sizeof path);
    ASSERT_EQ(mkfifo(path, 0600), 0);
    signal(SIGALRM, on_alarm);
    alarm(20); /* a FIFO with no writer would block an open or read for ever */
    ASSERT_TRUE(!found(&k, (const uint8_t *)"", 0));
    alarm(0);
    ASSERT_TRUE(!exists(path));
    /* A link to a good entry (elsewhere: a directory anyone can write) is not followed. */
    lat__cache_key k2 = random_key();
    uint8_t *p = put_random(&k2, 64);
    char good[900];
    entry_path(&k2, good, sizeof good);
    ASSERT_EQ(rename(good, path), 0);
    ASSERT_EQ(symlink(path, good), 0);
    ASSERT_TRUE(!found(&k2, p, 64));
    ASSERT_TRUE(!exists(good));
}

/* Bytes this process has read (read(2) and friends) so far. */
static unsigned long long bytes_read(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    if (!f)
        SKIP("no /proc/self/io to count the bytes read");
    char line[128];
    unsigned long long n = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "rchar: %llu", &n) == 1)
            break;
    fclose(f);
    return n;
}

TEST(a_huge_sparse_entry_is_not_read)
{
    fresh_dir();
    lat__cache_key k = random_key();
    uint8_t *p = put_random(&k, 512);
    char path[900];
    entry_path(&k, path, sizeof path);
    /* Its header says 3 GiB follow, and so does its size: all of it a hole. */
    int fd = open(path, O_RDWR);
    ASSERT_TRUE(fd >= 0);
    uint64_t huge = (uint64_t)3 << 30;
    uint8_t le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)(huge >> (8 * i));
    ASSERT_EQ(pwrite(fd, le, 8, 48), 8);
    ASSERT_EQ(ftruncate(fd, (off_t)(88 + huge)), 0);
    close(fd);
    unsigned long long before = bytes_read();
    ASSERT_TRUE(!found(&k, p, 512));
    unsigned long long after = bytes_read();
    ASSERT_MSG(after - before < (1u << 20), "read %llu bytes of a 3 GiB entry",
               after - before);
    ASSERT_TRUE(!exists(path));
}

TEST(an_edited_entry_or_one_moved_under_another_key_is_not_loaded)
{
    fresh_dir();
    lat__cache_key k = random_key();
    size_t n = 2000 + t_rand_u32() % 2000;
    uint8_t *p = put_random(&k, n);
    char path[900];
    entry_path(&k, path, sizeof path);
    /* One bit of the payload flipped, anywhere. */
    int fd = open(path, O_RDWR);
    ASSERT_TRUE(fd >= 0);
    off_t at = 88 + (off_t)(t_rand_u32() % n);
    uint8_t b;
    ASSERT_EQ(pread(fd, &b, 1, at), 1);
    b ^= (uint8_t)(1u << (t_rand_u32() % 8));
    ASSERT_EQ(pwrite(fd, &b, 1, at), 1);
    close(fd);
    ASSERT_TRUE(!found(&k, p, n));
    ASSERT_TRUE(!exists(path)); /* removed: the next compile writes a good one */
    /* A good entry renamed to another key's name: its header and digest name its own. */
    lat__cache_key k2 = random_key();
    p = put_random(&k, n);
    char other[900];
    entry_path(&k2, other, sizeof other);
    ASSERT_EQ(rename(path, other), 0);
    ASSERT_TRUE(!found(&k2, p, n));
}
