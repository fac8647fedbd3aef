// The booking providers' documented sample webhook bodies, with our lead id where the booking page
// carries it back, for tests and the local stand-in of a provider. Field names and shapes follow
// each provider's published sample: Cal.com's BOOKING_CREATED (trimmed of the organizer's and the
// apps' details we never read) and Calendly's invitee.created / invitee.canceled.

export type CalTrigger = 'BOOKING_CREATED' | 'BOOKING_RESCHEDULED' | 'BOOKING_CANCELLED' | 'MEETING_ENDED' | 'PING';

export function calPayload(
  options: {
    trigger?: CalTrigger;
    leadId?: string;
    uid?: string;
    rescheduleUid?: string;
    email?: string;
    name?: string;
    startTime?: string;
    endTime?: string;
  } = {},
): Record<string, unknown> {
  const trigger = options.trigger ?? 'BOOKING_CREATED';
  const uid = options.uid ?? 'bFJeNb2uX8ANpT3JL5EfXw';
  return {
    triggerEvent: trigger,
    createdAt: '2023-05-24T09:30:00.538Z',
    payload: {
      type: '60min',
      title: '60min between Pro Example and John Doe',
      description: '',
      additionalNotes: '',
      customInputs: {},
      startTime: options.startTime ?? '2023-05-25T09:30:00Z',
      endTime: options.endTime ?? '2023-05-25T10:30:00Z',
      organizer: {
        id: 5,
        name: 'Pro Example',
        email: 'pro@example.com',
        username: 'pro',
        timeZone: 'Asia/Kolkata',
        language: { locale: 'en' },
        timeFormat: 'h:mma',
      },
      responses: {
        name: { label: 'your_name', value: options.name ?? 'John Doe' },
        email: { label: 'email_address', value: options.email ?? 'john.doe@example.com' },
        location: { label: 'location', value: { optionValue: '', value: 'Cal Video' } },
      },
      userFieldsResponses: {},
      attendees: [
        {
          email: options.email ?? 'john.doe@example.com',
          name: options.name ?? 'John Doe',
          timeZone: 'Asia/Kolkata',
          language: { locale: 'en' },
        },
      ],
      location: 'Cal Video',
      destinationCalendar: null,
      hideCalendarNotes: false,
      requiresConfirmation: null,
      eventTypeId: 7,
      seatsShowAttendees: true,
      seatsPerTimeSlot: null,
      uid,
      ...(options.rescheduleUid === undefined ? {} : { rescheduleUid: options.rescheduleUid }),
      eventTitle: '60min',
      eventDescription: '',
      price: 0,
      currency: 'usd',
      length: 60,
      bookingId: 91,
      metadata: {
        videoCallUrl: `https://app.cal.com/video/${uid}`,
        ...(options.leadId === undefined ? {} : { leadId: options.leadId }),
      },
      status: trigger === 'BOOKING_CANCELLED' ? 'CANCELLED' : 'ACCEPTED',
    },
  };
}

const CALENDLY_API = 'https://api.calendly.com';

export function calendlyPayload(
  options: {
    event?: 'invitee.created' | 'invitee.canceled' | 'routing_form_submission.created';
    leadId?: string;
    invitee?: string;
    oldInvitee?: string;
    newInvitee?: string;
    rescheduled?: boolean;
    email?: string;
    name?: string;
    startTime?: string;
    endTime?: string;
  } = {},
): Record<string, unknown> {
  const event = options.event ?? 'invitee.created';
  const scheduledEvent = `${CALENDLY_API}/scheduled_events/GBGBDCAADAEDCRZ2`;
  return {
    created_at: '2020-11-23T17:51:19.000000Z',
    created_by: `${CALENDLY_API}/users/AAAAAAAAAAAAAAAA`,
    event,
    payload: {
      cancel_url: 'https://calendly.com/cancellations/AAAAAAAAAAAAAAAA',
      created_at: '2020-11-23T17:51:18.327602Z',
      email: options.email ?? 'test@example.com',
      event: scheduledEvent,
      name: options.name ?? 'John Doe',
      new_invitee: options.newInvitee ?? null,
      old_invitee: options.oldInvitee ?? null,
      questions_and_answers: [],
      reschedule_url: 'https://calendly.com/reschedulings/AAAAAAAAAAAAAAAA',
      rescheduled: options.rescheduled ?? false,
      status: event === 'invitee.canceled' ? 'canceled' : 'active',
      text_reminder_number: null,
      timezone: 'America/New_York',
      tracking: {
        utm_campaign: null,
        utm_source: null,
        utm_medium: null,
        utm_content: null,
        utm_term: null,
        salesforce_uuid: options.leadId ?? null,
      },
      updated_at: '2020-11-23T17:51:18.341657Z',
      uri: options.invitee ?? `${scheduledEvent}/invitees/AAAAAAAAAAAAAAAA`,
      scheduled_event: {
        uri: scheduledEvent,
        name: '15 Minute Meeting',
        status: event === 'invitee.canceled' ? 'canceled' : 'active',
        start_time: options.startTime ?? '2019-08-24T14:15:22.123456Z',
        end_time: options.endTime ?? '2019-08-24T14:30:22.123456Z',
        event_type: `${CALENDLY_API}/event_types/GBGBDCAADAEDCRZ2`,
        location: { type: 'physical', location: 'Calendly Office' },
        invitees_counter: { total: 1, active: 1, limit: 1 },
        created_at: '2019-01-02T03:04:05.092125Z',
        updated_at: '2019-01-02T03:04:05.092125Z',
        event_memberships: [{ user: `${CALENDLY_API}/users/GBGBDCAADAEDCRZ2` }],
        event_guests: [],
      },
      ...(event === 'invitee.canceled'
        ? { cancellation: { canceled_by: options.name ?? 'John Doe', reason: 'Schedule conflict', canceler_type: 'invitee' } }
        : {}),
    },
  };
}
