/* pi_mapper: pi as the integral of 4 / (1 + x^2) over [0, 1], from the PyCUDA notebook. A
 * kernel evaluates the integrand at a million points, one thread each; the host adds. */
#include <lattice.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PROBLEM_SIZE 1000000
#define STR_(x) #x
#define STR(x) STR_(x) /* the size goes into the source, as the notebook formats it in */

static const char *source =
    "#define PROBLEM_SIZE " STR(PROBLEM_SIZE) "\n"
    "__global__ void mapper(float *dest)\n"
    "{\n"
    "    const int id = threadIdx.x + blockDim.x * blockIdx.x;\n"
    "    const double x = 1.0 * id / PROBLEM_SIZE; // from 0.0 to 1.0\n"
    "    if (id < PROBLEM_SIZE)\n"
    "        dest[id] = 4.0 / (1.0 + x * x);\n"
    "}\n";

int main(void)
{
    lat_kernel *mapper;
    LAT_TRY(lat_kernel_compile(NULL, source, "mapper", &mapper));
    float *dest = malloc(PROBLEM_SIZE * sizeof *dest);
    if (!dest)
        return 1;
    LAT_TRY(lat_launch_args(mapper, &(lat_launch_desc){.grid = {(PROBLEM_SIZE + 511) / 512}, .block = {512}},
                            LAT_ARGS(lat_arg_out(dest, PROBLEM_SIZE * sizeof *dest))));
    double sum = 0;
    for (int i = 0; i < PROBLEM_SIZE; i++)
        sum += dest[i];
    double pi = sum / PROBLEM_SIZE; /* the bin size */
    printf("%f\n", pi);
    free(dest);
    return fabs(pi - 3.14159265358979) < 1e-5 ? 0 : 1;
}
