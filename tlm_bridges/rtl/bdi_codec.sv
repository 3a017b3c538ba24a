// BDI line compressor/decompressor for 128-byte lines, as in CABA's hardware
// design point: a valid/ready request (compress a line, or decompress an
// image) answered 5 cycles (compress) or 1 cycle (decompress) after it is
// taken, one request at a time. Encodings, choice and image layout are those
// of the C++ reference, models/mem/bdi.h: zeros, repeated, base8-delta1/2/4,
// base4-delta1/2, base2-delta1 (one explicit base, the first value that is not
// itself a small number, plus the implicit zero base), or uncompressed; the
// image is [encoding][base mask][base][deltas], an uncompressed line is
// stored as itself (128 bytes, no header).

// One base-delta encoding of K-byte values with D-byte deltas.
module bdi_base_delta #(parameter int K = 8, parameter int D = 1, parameter logic [7:0] CODE = 8'd2) (
    input  logic [1023:0] line,
    output logic          fits,
    output logic [1023:0] image,
    input  logic [1023:0] packed_in,  // an image of this encoding, to decode
    output logic [1023:0] unpacked
);
  localparam int N = 128 / K;
  localparam int MASK_BYTES = (N + 7) / 8;
  localparam int BASE_AT = 8 + 8 * MASK_BYTES;  // bit offsets in the image
  localparam int DELTAS_AT = BASE_AT + 8 * K;

  function automatic logic fits_delta(input logic [8*K-1:0] v);  // a signed D-byte number?
    logic [8*K-1:0] top;
    top = v >> (8 * D - 1);
    return top == '0 || top == ((8 * K)'(1) << (8 * K - 8 * D + 1)) - 1;
  endfunction

  always_comb begin
    logic have_base;
    logic [8*K-1:0] base, v, delta;
    have_base = 1'b0;
    delta = '0;
    base = line[8*K-1:0];
    fits = 1'b1;
    image = '0;
    image[7:0] = CODE;
    for (int i = 0; i < N; i++) begin
      v = line[i*8*K +: 8*K];
      if (!fits_delta(v)) begin
        if (!have_base) begin
          base = v;
          have_base = 1'b1;
        end
        delta = v - base;
        if (!fits_delta(delta)) fits = 1'b0;
        image[8 + i] = 1'b1;
        image[DELTAS_AT + i*8*D +: 8*D] = delta[8*D-1:0];
      end else begin
        image[DELTAS_AT + i*8*D +: 8*D] = v[8*D-1:0];
      end
    end
    image[BASE_AT +: 8*K] = base;
  end

  always_comb begin
    logic [8*K-1:0] b, d;
    b = packed_in[BASE_AT +: 8*K];
    unpacked = '0;
    for (int i = 0; i < N; i++) begin
      d = {{(8*K-8*D){packed_in[DELTAS_AT + i*8*D + 8*D - 1]}}, packed_in[DELTAS_AT + i*8*D +: 8*D]};
      unpacked[i*8*K +: 8*K] = packed_in[8 + i] ? b + d : d;
    end
  end
endmodule

module bdi_codec (
    input  logic          clk,
    input  logic          rst_n,
    // request: in_op 0 compresses in_data (a line), 1 decompresses in_data (an image of in_bytes)
    input  logic          in_valid,
    output logic          in_ready,
    input  logic          in_op,
    input  logic [1023:0] in_data,
    input  logic [  7:0]  in_bytes,
    // answer: a compressed image (out_bytes long, encoding out_encoding) or a line (128 bytes)
    output logic          out_valid,
    input  logic          out_ready,
    output logic [1023:0] out_data,
    output logic [  7:0]  out_bytes,
    output logic [  3:0]  out_encoding
);
  localparam logic [3:0] ZEROS = 0, REPEATED = 1, B8D1 = 2, B8D2 = 3, B8D4 = 4, B4D1 = 5, B4D2 = 6, B2D1 = 7,
                         UNCOMPRESSED = 8;

  logic [1023:0] held;  // the request, taken
  logic held_op;
  logic [7:0] held_bytes;
  logic busy;
  logic [2:0] wait_cycles;

  logic [1023:0] img [2:7];
  logic [1023:0] dec [2:7];
  logic ok [2:7];
  bdi_base_delta #(8, 1, 8'd2) e2 (.line(held), .fits(ok[2]), .image(img[2]), .packed_in(held), .unpacked(dec[2]));
  bdi_base_delta #(8, 2, 8'd3) e3 (.line(held), .fits(ok[3]), .image(img[3]), .packed_in(held), .unpacked(dec[3]));
  bdi_base_delta #(8, 4, 8'd4) e4 (.line(held), .fits(ok[4]), .image(img[4]), .packed_in(held), .unpacked(dec[4]));
  bdi_base_delta #(4, 1, 8'd5) e5 (.line(held), .fits(ok[5]), .image(img[5]), .packed_in(held), .unpacked(dec[5]));
  bdi_base_delta #(4, 2, 8'd6) e6 (.line(held), .fits(ok[6]), .image(img[6]), .packed_in(held), .unpacked(dec[6]));
  bdi_base_delta #(2, 1, 8'd7) e7 (.line(held), .fits(ok[7]), .image(img[7]), .packed_in(held), .unpacked(dec[7]));

  logic [1023:0] best_image, line_out;
  logic [7:0] best_bytes;
  logic [3:0] best_code;
  always_comb begin
    logic repeated;
    repeated = 1'b1;
    for (int i = 1; i < 16; i++) if (held[i*64 +: 64] != held[63:0]) repeated = 1'b0;
    best_image = held;
    best_bytes = 8'd128;
    best_code = UNCOMPRESSED;
    // Smallest image first; b8d4 and b2d1 tie at 75 bytes: the earlier encoding wins.
    if (held == '0) begin
      best_image = '0; best_bytes = 8'd1; best_code = ZEROS;
    end else if (repeated) begin
      best_image = '0; best_image[7:0] = 8'd1; best_image[71:8] = held[63:0]; best_bytes = 8'd9;
      best_code = REPEATED;
    end else if (ok[2]) begin best_image = img[2]; best_bytes = 8'd27; best_code = B8D1;
    end else if (ok[5]) begin best_image = img[5]; best_bytes = 8'd41; best_code = B4D1;
    end else if (ok[3]) begin best_image = img[3]; best_bytes = 8'd43; best_code = B8D2;
    end else if (ok[6]) begin best_image = img[6]; best_bytes = 8'd73; best_code = B4D2;
    end else if (ok[4]) begin best_image = img[4]; best_bytes = 8'd75; best_code = B8D4;
    end else if (ok[7]) begin best_image = img[7]; best_bytes = 8'd75; best_code = B2D1;
    end
    // Decompression: the header byte says how, unless the image is the whole line.
    line_out = held;
    if (held_bytes != 8'd128) begin
      case (held[7:0])
        8'd0: line_out = '0;
        8'd1: for (int i = 0; i < 16; i++) line_out[i*64 +: 64] = held[71:8];
        8'd2: line_out = dec[2];
        8'd3: line_out = dec[3];
        8'd4: line_out = dec[4];
        8'd5: line_out = dec[5];
        8'd6: line_out = dec[6];
        8'd7: line_out = dec[7];
        default: line_out = '0;
      endcase
    end
  end

  assign in_ready = rst_n && !busy;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      busy <= 1'b0;
      out_valid <= 1'b0;
      wait_cycles <= '0;
    end else if (in_valid && in_ready) begin
      held <= in_data;
      held_op <= in_op;
      held_bytes <= in_bytes;
      busy <= 1'b1;
      wait_cycles <= in_op ? 3'd1 : 3'd5;  // the answer is valid this many edges after the request's
    end else if (busy && !out_valid) begin
      if (wait_cycles == 3'd1) begin
        out_valid <= 1'b1;
        out_data <= held_op ? line_out : best_image;
        out_bytes <= held_op ? 8'd128 : best_bytes;
        out_encoding <= !held_op ? best_code : held_bytes == 8'd128 ? UNCOMPRESSED : held[3:0];
      end else begin
        wait_cycles <= wait_cycles - 1'b1;
      end
    end else if (out_valid && out_ready) begin
      out_valid <= 1'b0;
      busy <= 1'b0;
    end
  end
endmodule
