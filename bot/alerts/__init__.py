"""Module subscriptions and merge alerts (issue 8).

The pieces are wired once per process by `bot.alerts.wiring.build_runtime` (through
`App.alerts()`): one SubscriptionService, one AlertPipeline fed by a WebhookReceiver
(POST /github/webhook) and an AlertPoller. Until that runtime is built, `App.subscriptions`
is a SubscriptionService over the store alone. Import them from their modules: this
package imports nothing, so reading a channel's subscriptions (every command does) does
not load the pipeline.
"""
