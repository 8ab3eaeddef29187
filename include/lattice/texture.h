/*
 * lattice/texture.h — textures and surfaces through texture objects, on both backends:
 * CUDA arrays (1-D, 2-D, 3-D, layered), texture objects over an array or over device
 * memory (linear or pitched 2-D), and surface objects over an array.
 *
 *     lat_tex_array *img;
 *     lat_tex_array_create(ctx, &(lat_tex_array_desc){.width = w, .height = h}, &img);
 *     lat_tex_array_copy_from_host(img, pixels, 0);
 *     lat_texture *tex;
 *     lat_texture_create(ctx, &(lat_texture_desc){.array = img,
 *                                                  .filter = LAT_FILTER_LINEAR,
 *                                                  .normalized_coords = 1,
 *                                                  .address_mode = {LAT_ADDRESS_WRAP,
 *                                                                   LAT_ADDRESS_WRAP}},
 *                        &tex);
 *     lat_launch_args(k, &desc, LAT_ARGS(lat_arg_ptr(out), lat_arg_u64(lat_texture_handle(tex))));
 *
 * A kernel takes the handle as a `cudaTextureObject_t` (or `cudaSurfaceObject_t`)
 * parameter and reads it with tex1Dfetch<T>, tex1D<T>, tex2D<T>, tex3D<T>,
 * tex1DLayered<T>, tex2DLayered<T>, or surf1Dread/surf2Dread/surf3Dread and their
 * write and layered forms (docs/dialect.md lists exactly what the emulator accepts).
 * Texture references (`texture<float, 2> t;`, removed in CUDA 12) are not supported.
 *
 * The emulator samples as the GPU does: point sampling takes the texel under the
 * coordinate; linear filtering uses weights of 8 fractional bits (the CUDA Programming
 * Guide's 9-bit fixed point), rounded and combined per corner as an H100 does (measured:
 * tools/probes), so filtered reads of float and half texels give the same value on both
 * backends wherever the weighted sum is exact in float, and the last bits elsewhere
 * (docs/dialect.md says where). Normalised-float reads of 8- and 16-bit
 * integers map unsigned values to [0, 1] and signed ones to [-1, 1].
 *
 * On the emulator a texture's or surface's handle is checked at every read: a handle that
 * is not a live object of the launch's context (destroyed, never made, another
 * context's), a surface used as a texture, or a texture over device memory that was
 * freed fails the launch with LAT_ERROR_LAUNCH_FAILED and a message that names the
 * kernel, the thread, the call and the handle. Surface accesses outside the surface with
 * cudaBoundaryModeTrap (the default) fail the launch the same way. Texture and surface
 * reads are reads through the runtime, not kernel pointer accesses: LATTICE_CHECK's
 * memcheck does not report them.
 *
 * Cross-checking (LATTICE_BACKEND=cross) makes every array, texture and surface on both
 * sides; a launch's parameters declared cudaTextureObject_t or cudaSurfaceObject_t are
 * given the emulator's handles, and after the launch the arrays under its surface
 * parameters are compared texel by texel (float and half texels within the tolerance).
 *
 * Conventions are lattice.h's: lat_status results, descriptors valid when zeroed,
 * destroying NULL is a no-op, and every function may be called from any thread. An
 * object may be used by several launches at once; it must not be destroyed while a
 * launch that uses it may run. Objects still alive when their context is destroyed are
 * destroyed with it.
 */
#ifndef LATTICE_TEXTURE_H
#define LATTICE_TEXTURE_H

#include "../lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------ */
/* Element formats                                                                      */
/* ------------------------------------------------------------------------------------ */

/* The type of one channel of a texel (cuda.h's CUarray_format). */
typedef enum lat_format {
    LAT_FORMAT_DEFAULT = 0, /* LAT_FORMAT_F32 */
    LAT_FORMAT_U8 = 1,      /* unsigned char */
    LAT_FORMAT_I8 = 2,      /* signed char */
    LAT_FORMAT_U16 = 3,     /* unsigned short */
    LAT_FORMAT_I16 = 4,     /* short */
    LAT_FORMAT_U32 = 5,     /* unsigned int */
    LAT_FORMAT_I32 = 6,     /* int */
    LAT_FORMAT_F16 = 7,     /* IEEE half; read as float */
    LAT_FORMAT_F32 = 8      /* float */
} lat_format;

/* "u8", "f32"...; "unknown" for a value not in the enum. Thread safety: any thread. */
LAT_API const char *lat_format_name(lat_format format);
/* The bytes of one channel (1, 2 or 4), 0 for a value not in the enum. */
LAT_API size_t lat_format_size(lat_format format);

/* ------------------------------------------------------------------------------------ */
/* CUDA arrays                                                                          */
/* ------------------------------------------------------------------------------------ */

/* Texel storage laid out for textures (cuArray3DCreate): what textures and surfaces are
 * made over. Not lattice/array.h's lat_array (device memory with a dtype and a shape). */
typedef struct lat_tex_array lat_tex_array;

typedef struct lat_tex_array_desc {
    size_t width;  /* texels in a row, at least 1 */
    size_t height; /* rows; 0: a 1-D array (or a 1-D layered one) */
    size_t depth;  /* slices; 0: not 3-D. A 3-D array needs a height */
    size_t layers; /* 0: not layered; N: N layers of 1-D (height 0) or 2-D texels */
    lat_format format;
    int channels;  /* 1, 2 or 4; 0 means 1 */
    /* Non-zero: surfaces may be made over the array (CUDA_ARRAY3D_SURFACE_LDST). */
    int surface;
} lat_tex_array_desc;

/* Creates a CUDA array in ctx. Its texels are undefined until copied.
 *   desc: its shape and format (not NULL).
 *   out:  receives the array; NULL on failure.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument; a width of 0; an unknown format;
 * channels other than 0, 1, 2 and 4; both depth and layers; a depth without a height; a
 * dimension beyond the device's limit for that kind of array, named with the limit);
 * LAT_ERROR_OVERFLOW (the texels' bytes overflow a size_t); LAT_ERROR_OUT_OF_DEVICE_MEMORY;
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_tex_array_create(lat_context *ctx, const lat_tex_array_desc *desc,
                                        lat_tex_array **out);

/* Destroys an array. Textures and surfaces made over it stay usable: its storage is freed
 * when the last of them is destroyed. NULL is a no-op. Thread safety: no other thread
 * may use the array handle during or after the call. */
LAT_API void lat_tex_array_destroy(lat_tex_array *arr);

/* The descriptor the array was made with, with its defaults filled in (format, channels).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument). Thread safety: any thread. */
LAT_API lat_status lat_tex_array_get_desc(const lat_tex_array *arr, lat_tex_array_desc *out);

/* Copies the whole array from host memory: rows of width * channels * format-size
 * bytes, `pitch` bytes apart (0: packed), each 2-D slice or layer height rows after the
 * previous one (one row for 1-D arrays). Returns when the copy is complete, ordered after
 * the launches made before it.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument, a pitch smaller than a row, a destroyed
 * array); LAT_ERROR_OVERFLOW; LAT_ERROR_DRIVER. Thread safety: any thread; not while a
 * launch that writes the array through a surface runs. */
LAT_API lat_status lat_tex_array_copy_from_host(lat_tex_array *arr, const void *src,
                                                size_t pitch);
/* The same the other way: the whole array into host memory laid out as above. */
LAT_API lat_status lat_tex_array_copy_to_host(lat_tex_array *arr, void *dst, size_t pitch);

/* ------------------------------------------------------------------------------------ */
/* Texture objects                                                                      */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_texture lat_texture;

/* What a coordinate outside the texture reads, per dimension (cudaTextureAddressMode). */
typedef enum lat_address_mode {
    LAT_ADDRESS_CLAMP = 0,  /* the nearest edge texel */
    LAT_ADDRESS_WRAP = 1,   /* the texture repeats (normalised coordinates only) */
    LAT_ADDRESS_MIRROR = 2, /* the texture repeats mirrored (normalised coordinates only) */
    LAT_ADDRESS_BORDER = 3  /* border_color */
} lat_address_mode;

typedef enum lat_filter_mode {
    LAT_FILTER_POINT = 0, /* the texel the coordinate falls in */
    LAT_FILTER_LINEAR = 1 /* linear, bilinear or trilinear interpolation (float reads only) */
} lat_filter_mode;

typedef enum lat_read_mode {
    LAT_READ_ELEMENT_TYPE = 0,    /* texels as stored (half as float) */
    LAT_READ_NORMALIZED_FLOAT = 1 /* 8- and 16-bit integers as floats in [0,1] or [-1,1] */
} lat_read_mode;

typedef struct lat_texture_desc {
    /* The texels: exactly one of array, linear.ptr and pitch2d.ptr. */
    lat_tex_array *array;
    struct {
        lat_deviceptr ptr;  /* aligned to TEXTURE_ALIGNMENT (lat_device_attribute) */
        lat_format format;
        int channels;       /* 1, 2 or 4; 0 means 1 */
        size_t bytes;       /* a whole number of texels, inside one allocation */
    } linear;               /* read with tex1Dfetch<T>(t, i): no filtering, no addressing */
    struct {
        lat_deviceptr ptr;  /* aligned to TEXTURE_ALIGNMENT */
        lat_format format;
        int channels;
        size_t width, height; /* in texels */
        size_t pitch;       /* bytes from a row to the next: a multiple of
                               TEXTURE_PITCH_ALIGNMENT, at least a row */
    } pitch2d;              /* read with tex2D<T> */
    lat_address_mode address_mode[3]; /* per dimension: x, y, z */
    lat_filter_mode filter;
    lat_read_mode read_mode;
    int normalized_coords; /* non-zero: coordinates in [0, 1) span the texture */
    float border_color[4]; /* LAT_ADDRESS_BORDER's texel (integer reads: the bits) */
} lat_texture_desc;

/* Creates a texture object in ctx.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument; none or several of the resources; an
 * array, format or address mode that is not valid; wrap or mirror without normalised
 * coordinates; linear filtering of texels read as integers; normalised-float reads of
 * 32-bit or float texels; memory not aligned as the device requires, or not inside one
 * live allocation of ctx; a pitch too small or not aligned; an array of another context
 * or destroyed; a dimension beyond the device's limit — the message names the field);
 * LAT_ERROR_OVERFLOW; LAT_ERROR_OUT_OF_MEMORY; LAT_ERROR_DRIVER. Thread safety: any
 * thread. */
LAT_API lat_status lat_texture_create(lat_context *ctx, const lat_texture_desc *desc,
                                      lat_texture **out);

/* Destroys a texture object; its handle is then invalid in kernels. NULL is a no-op.
 * Thread safety: no launch that reads it may be running. */
LAT_API void lat_texture_destroy(lat_texture *tex);

/* The 64-bit value a kernel's cudaTextureObject_t parameter takes (pass it with
 * lat_arg_u64, or by address in lat_launch's params); 0 for NULL.
 * Thread safety: any thread. */
LAT_API uint64_t lat_texture_handle(const lat_texture *tex);

/* ------------------------------------------------------------------------------------ */
/* Surface objects                                                                      */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_surface lat_surface;

/* Creates a surface object over an array made with desc.surface set: kernels read and
 * write its texels with surf*read and surf*write (x in bytes).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument; an array without the surface flag, of
 * another context, or destroyed); LAT_ERROR_OUT_OF_MEMORY; LAT_ERROR_DRIVER.
 * Thread safety: any thread. */
LAT_API lat_status lat_surface_create(lat_context *ctx, lat_tex_array *arr, lat_surface **out);

/* Destroys a surface object. NULL is a no-op. Thread safety: no launch that uses it may
 * be running. */
LAT_API void lat_surface_destroy(lat_surface *surf);

/* The 64-bit value a kernel's cudaSurfaceObject_t parameter takes; 0 for NULL.
 * Thread safety: any thread. */
LAT_API uint64_t lat_surface_handle(const lat_surface *surf);

#ifdef __cplusplus
}
#endif

#endif /* LATTICE_TEXTURE_H */
