// Leaks through Rust's standard library (rust-std-frames.test): a vector of
// 1000 u64 (8000 bytes, vec! from alloc::vec::from_elem) and a boxed array
// of 4096 bytes, each from a function of its own, dropped with mem::forget
// (black_box: without it the optimizer removes both allocations).
#[inline(never)]
fn leak_vec() {
    let v: Vec<u64> = vec![7; 1000];
    std::mem::forget(std::hint::black_box(v));
}

#[inline(never)]
fn leak_box() {
    let b: Box<[u8; 4096]> = Box::new([1u8; 4096]);
    std::mem::forget(std::hint::black_box(b));
}

fn main() {
    leak_vec();
    leak_box();
    println!("done");
}
