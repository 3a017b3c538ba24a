// An AXI4 memory subordinate: 64-bit data, 8-bit IDs, INCR/FIXED/WRAP bursts,
// byte strobes. Its bytes live in the platform's device memory, reached through
// two DPI-C functions (the C++ wrapper gives the instance a handle), so that
// the RTL decides timing and protocol while the data stays where the host and
// the other blocks see it. Latency and the outstanding limit are inputs, set
// from the netlist at run time:
//   - a read's first beat is loaded `cfg_latency` cycles after its AR was
//     accepted (at the earliest), then one beat per cycle while RREADY;
//   - a write's B is valid `cfg_latency` cycles after its last W beat;
//   - AWREADY (ARREADY) is low while `cfg_outstanding` writes (reads), at most
//     MAX_OUTSTANDING, are accepted and not yet answered.
// Responses come in request order per direction. An address outside
// [cfg_base, cfg_base + cfg_size) is answered with DECERR (reads return 0).
module axi_memory #(
    parameter int MAX_OUTSTANDING = 16
) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic [31:0] cfg_handle,
    input  logic [31:0] cfg_latency,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [31:0] cfg_outstanding,  // 1 to MAX_OUTSTANDING: its high bits are unused
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [63:0] cfg_base,
    input  logic [63:0] cfg_size,
    // write address
    input  logic        awvalid,
    output logic        awready,
    input  logic [ 7:0] awid,
    input  logic [63:0] awaddr,
    input  logic [ 7:0] awlen,
    input  logic [ 2:0] awsize,
    input  logic [ 1:0] awburst,
    // write data
    input  logic        wvalid,
    output logic        wready,
    input  logic [63:0] wdata,
    input  logic [ 7:0] wstrb,
    input  logic        wlast,
    // write response
    output logic        bvalid,
    input  logic        bready,
    output logic [ 7:0] bid,
    output logic [ 1:0] bresp,
    // read address
    input  logic        arvalid,
    output logic        arready,
    input  logic [ 7:0] arid,
    input  logic [63:0] araddr,
    input  logic [ 7:0] arlen,
    input  logic [ 2:0] arsize,
    input  logic [ 1:0] arburst,
    // read data
    output logic        rvalid,
    input  logic        rready,
    output logic [ 7:0] rid,
    output logic [63:0] rdata,
    output logic [ 1:0] rresp,
    output logic        rlast
);
  import "DPI-C" function longint unsigned tessera_rtl_memory_read(input int unsigned handle,
                                                                   input longint unsigned addr);
  import "DPI-C" function void tessera_rtl_memory_write(input int unsigned handle, input longint unsigned addr,
                                                       input longint unsigned data, input int unsigned strb);

  localparam int PW = $clog2(MAX_OUTSTANDING);

  // Address of beat n of a burst (AXI4 A3.4.1).
  function automatic logic [63:0] beat_addr(input logic [63:0] a, input logic [7:0] len, input logic [2:0] size,
                                            input logic [1:0] burst, input logic [7:0] n);
    logic [63:0] bytes, aligned, span, lower;
    bytes   = 64'd1 << size;
    aligned = a & ~(bytes - 64'd1);
    if (burst == 2'd0 || n == 8'd0) return a;
    if (burst == 2'd2) begin
      span  = bytes * ({56'd0, len} + 64'd1);
      lower = a & ~(span - 64'd1);
      return lower + ((aligned - lower + {56'd0, n} * bytes) & (span - 64'd1));
    end
    return aligned + {56'd0, n} * bytes;
  endfunction

  function automatic logic in_range(input logic [63:0] a);
    return a >= cfg_base && a - cfg_base < cfg_size;
  endfunction

  logic [31:0] cycle;

  // ---- reads ----------------------------------------------------------------
  logic [63:0] ar_addr [MAX_OUTSTANDING];
  logic [ 7:0] ar_len  [MAX_OUTSTANDING];
  logic [ 2:0] ar_size [MAX_OUTSTANDING];
  logic [ 1:0] ar_burst[MAX_OUTSTANDING];
  logic [ 7:0] ar_id   [MAX_OUTSTANDING];
  logic [31:0] ar_ready_at[MAX_OUTSTANDING];
  logic [PW-1:0] ar_head, ar_tail;
  logic [PW:0] ar_count;  // accepted, not yet fully loaded onto R
  logic [PW:0] r_out;     // accepted, last beat not yet handshaken
  logic [7:0] r_beat;

  assign arready = rst_n && r_out < cfg_outstanding[PW:0] && r_out < (PW + 1)'(MAX_OUTSTANDING);

  always_ff @(posedge clk) begin
    logic take, load_last, done;
    logic [63:0] a;
    if (!rst_n) begin
      ar_head <= '0; ar_tail <= '0; ar_count <= '0; r_out <= '0; r_beat <= '0;
      rvalid <= 1'b0; rlast <= 1'b0; rid <= '0; rdata <= '0; rresp <= '0;
    end else begin
      take = arvalid && arready;
      done = rvalid && rready && rlast;
      load_last = 1'b0;
      if (take) begin
        ar_addr[ar_tail] <= araddr; ar_len[ar_tail] <= arlen; ar_size[ar_tail] <= arsize;
        ar_burst[ar_tail] <= arburst; ar_id[ar_tail] <= arid; ar_ready_at[ar_tail] <= cycle + cfg_latency;
        ar_tail <= ar_tail + 1'b1;
      end
      if (!rvalid || rready) begin
        if (ar_count != 0 && $signed(cycle - ar_ready_at[ar_head]) >= 0) begin
          a = beat_addr(ar_addr[ar_head], ar_len[ar_head], ar_size[ar_head], ar_burst[ar_head], r_beat);
          rvalid <= 1'b1;
          rid    <= ar_id[ar_head];
          rdata  <= in_range(a) ? tessera_rtl_memory_read(cfg_handle, a & ~64'd7) : 64'd0;
          rresp  <= in_range(a) ? 2'b00 : 2'b11;
          rlast  <= r_beat == ar_len[ar_head];
          if (r_beat == ar_len[ar_head]) begin
            r_beat    <= '0;
            ar_head   <= ar_head + 1'b1;
            load_last = 1'b1;
          end else begin
            r_beat <= r_beat + 1'b1;
          end
        end else begin
          rvalid <= 1'b0;
        end
      end
      ar_count <= ar_count + (PW + 1)'(take) - (PW + 1)'(load_last);
      r_out    <= r_out + (PW + 1)'(take) - (PW + 1)'(done);
    end
  end

  // ---- writes ---------------------------------------------------------------
  logic [63:0] aw_addr [MAX_OUTSTANDING];
  logic [ 7:0] aw_len  [MAX_OUTSTANDING];
  logic [ 2:0] aw_size [MAX_OUTSTANDING];
  logic [ 1:0] aw_burst[MAX_OUTSTANDING];
  logic [ 7:0] aw_id   [MAX_OUTSTANDING];
  logic        aw_err  [MAX_OUTSTANDING];
  logic [PW-1:0] aw_head, aw_tail;
  logic [PW:0] aw_count;  // AW accepted, W beats not all in
  logic [ 7:0] w_beat;
  logic [ 7:0] b_id      [MAX_OUTSTANDING];
  logic [ 1:0] b_resp    [MAX_OUTSTANDING];
  logic [31:0] b_ready_at[MAX_OUTSTANDING];
  logic [PW-1:0] b_head, b_tail;
  logic [PW:0] b_count;  // data in, B not yet handshaken
  logic [PW:0] w_out;    // AW accepted, B not yet handshaken

  assign awready = rst_n && w_out < cfg_outstanding[PW:0] && w_out < (PW + 1)'(MAX_OUTSTANDING);
  assign wready  = rst_n && aw_count != 0;
  assign bvalid  = rst_n && b_count != 0 && $signed(cycle - b_ready_at[b_head]) >= 0;
  assign bid     = b_id[b_head];
  assign bresp   = b_resp[b_head];

  always_ff @(posedge clk) begin
    logic take, beat, last, retire;
    logic [63:0] a;
    if (!rst_n) begin
      aw_head <= '0; aw_tail <= '0; aw_count <= '0; w_beat <= '0;
      b_head <= '0; b_tail <= '0; b_count <= '0; w_out <= '0; cycle <= '0;
    end else begin
      cycle <= cycle + 1;
      take   = awvalid && awready;
      beat   = wvalid && wready;
      retire = bvalid && bready;
      last   = 1'b0;
      if (take) begin
        aw_addr[aw_tail] <= awaddr; aw_len[aw_tail] <= awlen; aw_size[aw_tail] <= awsize;
        aw_burst[aw_tail] <= awburst; aw_id[aw_tail] <= awid; aw_err[aw_tail] <= 1'b0;
        aw_tail <= aw_tail + 1'b1;
      end
      if (beat) begin
        a = beat_addr(aw_addr[aw_head], aw_len[aw_head], aw_size[aw_head], aw_burst[aw_head], w_beat);
        if (in_range(a)) tessera_rtl_memory_write(cfg_handle, a & ~64'd7, wdata, {24'd0, wstrb});
        last = w_beat == aw_len[aw_head];
        if (last) begin
          b_id[b_tail]       <= aw_id[aw_head];
          b_resp[b_tail]     <= (aw_err[aw_head] || !in_range(a)) ? 2'b11 : 2'b00;
          b_ready_at[b_tail] <= cycle + cfg_latency;
          b_tail  <= b_tail + 1'b1;
          aw_head <= aw_head + 1'b1;
          w_beat  <= '0;
        end else begin
          if (!in_range(a)) aw_err[aw_head] <= 1'b1;
          w_beat <= w_beat + 1'b1;
        end
      end
      if (retire) b_head <= b_head + 1'b1;
      aw_count <= aw_count + (PW + 1)'(take) - (PW + 1)'(last);
      b_count  <= b_count + (PW + 1)'(last) - (PW + 1)'(retire);
      w_out    <= w_out + (PW + 1)'(take) - (PW + 1)'(retire);
    end
  end

  // wlast is implied by the burst length; the protocol checker watches it.
  logic unused;
  assign unused = wlast;
endmodule
