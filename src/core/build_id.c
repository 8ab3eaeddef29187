/* The build ID of lattice's own object: see build_id.h. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "build_id.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <string.h>

enum { ID_MAX = 64 };

static uint8_t id_bytes[ID_MAX];
static size_t id_len;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static size_t padded(size_t n, size_t align)
{
    return (n + align - 1) / align * align;
}

/* The NT_GNU_BUILD_ID note among a PT_NOTE segment's, copied to id_bytes. */
static void read_notes(const uint8_t *p, size_t size, size_t align)
{
    while (size >= sizeof(ElfW(Nhdr))) {
        ElfW(Nhdr) h;
        memcpy(&h, p, sizeof h);
        size_t name = padded(h.n_namesz, align), desc = padded(h.n_descsz, align);
        if (name > size - sizeof h || desc > size - sizeof h - name)
            return; /* malformed: no ID rather than a wrong one */
        const uint8_t *n = p + sizeof h;
        if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && memcmp(n, "GNU", 4) == 0 &&
            h.n_descsz > 0 && h.n_descsz <= ID_MAX) {
            memcpy(id_bytes, n + name, h.n_descsz);
            id_len = h.n_descsz;
            return;
        }
        p += sizeof h + name + desc;
        size -= sizeof h + name + desc;
    }
}

static int on_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uintptr_t addr = *(const uintptr_t *)data;
    bool holds = false;
    for (int i = 0; i < info->dlpi_phnum && !holds; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        holds = ph->p_type == PT_LOAD && addr >= lo && addr - lo < ph->p_memsz;
    }
    if (!holds)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && id_len == 0; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE)
            read_notes((const uint8_t *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz,
                       ph->p_align == 8 ? 8 : 4);
    }
    return 1;
}

static void find(void)
{
    /* An address in this object: this function's. */
    void (*self)(void) = find;
    uintptr_t addr;
    memcpy(&addr, &self, sizeof addr);
    dl_iterate_phdr(on_object, &addr);
}

bool lat__build_id(const uint8_t **id, size_t *len)
{
    pthread_once(&once, find);
    *id = id_len ? id_bytes : NULL;
    *len = id_len;
    return id_len > 0;
}
