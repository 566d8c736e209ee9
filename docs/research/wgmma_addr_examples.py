# wgmma_addr_examples.py: the shared-memory byte address of operand element (row, k) under each
# wgmma matrix-descriptor swizzle mode and major-ness, from the formulas of docs/research/hopper.md
# section 1 (the worked examples there come from this). Research for issue 29; no dependency.
def xor(pre, W):
    if W == 0: return pre
    mask = {32:1, 64:3, 128:7}[W]
    return pre ^ (((pre >> 7) & mask) << 4)
def kmajor(start, r, k, e, W, LBO, SBO):
    if W == 0:
        pre = start + (r%8)*16 + (r//8)*SBO + (k*e)%16 + ((k*e)//16)*LBO
    else:
        pre = start + (r%8)*W + (r//8)*SBO + k*e
    return pre, xor(pre, W)
def mnmajor(start, x, k, e, W, LBO, SBO):
    if W == 0:
        pre = start + (x*e)%16 + ((x*e)//16)*SBO + (k%8)*16 + (k//8)*LBO
    else:
        pre = start + (x*e)%W + ((x*e)//W)*LBO + (k%8)*W + (k//8)*SBO
    return pre, xor(pre, W)
S=0x400
print("K-major bf16, A 64x16, start=0x400")
for W,LBO,SBO in [(128,16,1024),(64,16,512),(32,16,256),(0,128,256)]:
    for (r,k) in [(0,0),(1,0),(5,9),(9,3),(63,15)]:
        pre,a = kmajor(S,r,k,2,W,LBO,SBO)
        print(f"  W={W:3} LBO={LBO} SBO={SBO} (m={r:2},k={k:2}) pre=0x{pre:04x} addr=0x{a:04x} bank={(a//4)%32}")
print("K-major bf16 128B, start advanced +32B (2nd k16 slice): element (m=5,k=3) of slice => logical k=19")
pre,a = kmajor(S+32,5,3,2,128,16,1024); print(f"  pre=0x{pre:04x} addr=0x{a:04x}")
print("TMA 128B box 64 rows x 64 bf16 at 0x400: element (row=5,col=19):")
lin = S + 5*128 + 19*2; print(f"  lin=0x{lin:04x} phys=0x{xor(lin,128):04x}")
print("K-major tf32 128B (m=3,k=5):", [hex(v) for v in kmajor(S,3,5,4,128,16,1024)])
print("K-major e4m3 128B (m=3,k=21):", [hex(v) for v in kmajor(S,3,21,1,128,16,1024)])
print("MN-major bf16 B operand N=64 K=16")
for W,LBO,SBO in [(128,0,1024),(64,1024,512),(32,512,256),(0,1024,128)]:
    for (x,k) in [(0,0),(1,0),(9,1),(40,9),(63,15)]:
        pre,a = mnmajor(S,x,k,2,W,LBO,SBO)
        print(f"  W={W:3} LBO={LBO} SBO={SBO} (n={x:2},k={k:2}) pre=0x{pre:04x} addr=0x{a:04x}")
