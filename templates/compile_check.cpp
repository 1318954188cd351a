// Compiles every template on its own with -Werror, so a broken template breaks our build.
#include "templates/common_prelude.h"
#include "templates/scalar_prelude.h"
#include "runtime/include/gentt/kernel_info.h"
#include "templates/sunway_prelude.h"
#include "templates/avx512_prelude.h"
#include "templates/avx2_prelude.h"
#include "templates/x86_bands_prelude.h"
GENTT_AVX2_END
