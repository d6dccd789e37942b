/*===- heapprof_ownstack.c - stacks of the runtime's own ----------------===
 *
 * Part of heapprof.  heapprof_ownstack.h says why.  The switch is a few
 * instructions of assembly (hp_call_on_stack below): rbp keeps the frame
 * on the caller's stack, so the frame-pointer chain, and the CFI that
 * says the same, lead from the first frame on the new stack back to the
 * caller, for debuggers and for heapprof's own walk.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <sys/mman.h>

/* hp_call_on_stack(fn, arg, top): fn(arg) with rsp = top (16-aligned). */
void hp_call_on_stack(void (*fn)(void *), void *arg, void *top);
__asm__(".text\n"
        ".p2align 4\n"
        ".globl hp_call_on_stack\n"
        ".hidden hp_call_on_stack\n"
        ".type hp_call_on_stack,@function\n"
        "hp_call_on_stack:\n"
        "  .cfi_startproc\n"
        "  pushq %rbp\n"
        "  .cfi_def_cfa_offset 16\n"
        "  .cfi_offset %rbp, -16\n"
        "  movq %rsp, %rbp\n"
        "  .cfi_def_cfa_register %rbp\n"
        "  movq %rdx, %rsp\n"
        "  movq %rdi, %rax\n"
        "  movq %rsi, %rdi\n"
        "  callq *%rax\n"
        "  movq %rbp, %rsp\n"
        "  popq %rbp\n"
        "  .cfi_def_cfa %rsp, 8\n"
        "  retq\n"
        "  .cfi_endproc\n"
        ".size hp_call_on_stack, .-hp_call_on_stack\n");

void hp_own_stack_run(hp_own_stack_t *s, void (*fn)(void *), void *arg) {
  uptr sp = (uptr)__builtin_frame_address(0);
  if (hp_own_stack_has(s, sp)) {
    fn(arg);
    return;
  }
  if (!s->lo) {
    char *p = hp_mmap(HP_OWN_STACK_SIZE + HP_PAGE_SIZE);
    if (!p || mprotect(p, HP_PAGE_SIZE, PROT_NONE) != 0) {
      if (p)
        hp_munmap(p, HP_OWN_STACK_SIZE + HP_PAGE_SIZE);
      fn(arg);
      return;
    }
    s->size = HP_OWN_STACK_SIZE;
    s->lo = p + HP_PAGE_SIZE;
  }
  hp_call_on_stack(fn, arg, s->lo + s->size);
}
