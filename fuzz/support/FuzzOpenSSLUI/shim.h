#include <openssl/ui.h>
