// OpenSSL's libcrypto (Debian's libssl-dev): SHA-256 through the EVP interface, which uses the
// CPU's SHA extensions where it has them (several times faster than portable code).
#include <openssl/evp.h>
