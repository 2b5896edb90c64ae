import JobKit
import NotificationCheck

/// `check-notifications`: do store notifications reach inbound_webhook_event? Exit 3 when not.
JobRunner.main(CheckNotifications.definition())
