/**
 * The platform's metrics (issue 32), each declared once. They are Effect metrics: updated in this process,
 * exported only when telemetry is on (OTLP, or `/metrics` in Prometheus text: adapters/telemetry).
 */
import { Metric, MetricBoundaries } from "effect"

/** Seconds, from 0.5 ms to about 8 s (Prometheus' convention: durations in seconds). */
const seconds = MetricBoundaries.exponential({ start: 0.0005, factor: 2, count: 15 })

export const Metrics = {
  /** Tagged `operation` and `status`. */
  requests: Metric.counter("http_server_requests_total", { description: "Requests answered, by operation and status" }),
  /** Tagged `operation` and `status`. */
  requestDuration: Metric.histogram(
    "http_server_request_duration_seconds",
    seconds,
    "Time from the request's arrival at the dispatcher to its answer",
  ),
  verificationsStarted: Metric.counter("verify_verifications_started_total", {
    description: "Verifications started (the code sent)",
  }),
  verificationsVerified: Metric.counter("verify_verifications_verified_total", {
    description: "Verifications checked right",
  }),
  /** Tagged `provider` and `outcome` (`accepted`, `refused`). */
  smsSends: Metric.counter("sms_sends_total", { description: "Texts handed to the SMS provider, by outcome" }),
  /** Tagged `outcome` (`succeeded`, `failed`). */
  webhookDeliveries: Metric.counter("webhook_delivery_attempts_total", {
    description: "Webhook delivery attempts, by outcome",
  }),
  webhookRetries: Metric.counter("webhook_retries_total", { description: "Webhook attempts after the first" }),
  outboxLag: Metric.histogram(
    "webhook_outbox_lag_seconds",
    MetricBoundaries.exponential({ start: 0.01, factor: 2, count: 16 }),
    "Time from a delivery's creation to its first attempt",
  ),
  walletCharges: Metric.counter("wallet_charges_total", { description: "Accepted wallet charges" }),
  walletChargedHalalas: Metric.counter("wallet_charged_halalas_total", { description: "Halalas charged" }),
  balanceLow: Metric.counter("wallet_balance_low_total", { description: "`balance.low` events fired" }),
} as const
