import { Decimal } from 'decimal.js';
import { Dec, round8 } from './money';

/**
 * Binance's discount on the standard commission when it is paid in BNB: "discount": "0.25000000",
 * the standard commission "reduced by this rate" (rest-api.md, GET /api/v3/account/commission;
 * faqs/commission_faq.md). 0.1 % becomes 0.075 %.
 */
export const BNB_DISCOUNT = new Dec('0.25');
export const BNB = 'BNB';

export type Commission = { amount: Decimal; asset: string; inBnb: boolean };

/**
 * The commission of one trade (faqs/commission_faq.md "How is the commission calculated?"): the
 * received amount × the rate, in the received asset — or, for an account that pays fees in BNB and
 * holds enough free BNB, the same value less the discount, converted to BNB at the BNB/quote price.
 * "If you do not have enough BNB to pay the discounted commission, the full commission will be
 * taken out of your received amount … instead."
 */
export const tradeCommission = (input: {
  rate: Decimal;
  received: Decimal;
  receivedAsset: string;
  /** The trade's price, to value a fee taken in the base asset in quote. */
  price: Decimal;
  isBuyer: boolean;
  /** The account pays in BNB, the BNB/quote price is known and this much BNB is free. */
  bnb?: { price: Decimal; free: Decimal };
}): Commission => {
  const standard = input.received.mul(input.rate);
  const inReceived: Commission = {
    amount: round8(standard, Decimal.ROUND_HALF_UP),
    asset: input.receivedAsset,
    inBnb: false,
  };
  if (!input.bnb?.price.gt(0)) return inReceived;
  const valueInQuote = input.isBuyer ? standard.mul(input.price) : standard;
  // Rounded up: the exchange never charges less than the rate.
  const inBnb = round8(valueInQuote.mul(new Dec(1).sub(BNB_DISCOUNT)).div(input.bnb.price), Decimal.ROUND_UP);
  if (inBnb.isZero() || input.bnb.free.lt(inBnb)) return inReceived;
  return { amount: inBnb, asset: BNB, inBnb: true };
};
