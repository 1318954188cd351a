#include "backends/memcpy_block.h"

#include "ir/error.h"

namespace gentt {

void emit_memcpy_block(CodeWriter& w, const Kernel& k, const BlockProgram& prog) {
  GENTT_CHECK(k.lanes == 1, "memcpy blocks move one element per register");
  for (const auto& op : prog.ops) {
    GENTT_CHECK(op.kind != OpKind::shuffle, "shuffle with one lane");
    if (op.kind == OpKind::load) {
      w.linef("unsigned char v{}[{}];", op.dst, k.elem_bytes);
      w.linef("std::memcpy(v{}, in + {}, {});", op.dst, op.offset, op.count * k.elem_bytes);
    } else {
      w.linef("std::memcpy(out + {}, v{}, {});", op.offset, op.src, op.count * k.elem_bytes);
    }
  }
}

}  // namespace gentt
