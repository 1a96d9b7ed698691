/* ceil for the Embedded Swift standard library, whose hash tables size themselves with it
 * (_HashTable.scale(forCapacity:)). x86-64's baseline has no rounding instruction (roundsd is SSE4.1), so
 * the compiler calls libm's; defined here, the library needs no libm at load time: one library less to map
 * and relocate in every process that loads it (about 0.2 ms of a fresh dlopen here, bench/dlopen_time.c).
 * Local to the library (Sources/Telenorid/exports.map): a host's ceil is not replaced. */
double ceil(double x) {
    /* NaN, the infinities and every magnitude from 2^52 up are whole already. */
    if (!(__builtin_fabs(x) < 0x1p52)) return x;
    double whole = (double)(long long)x; /* toward zero, exact below 2^52 */
    if (whole < x) whole += 1.0;
    return __builtin_copysign(whole, x); /* ceil(-0.5) is -0.0 */
}
